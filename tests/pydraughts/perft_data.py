"""Perft counts and legal-move lists from pydraughts, for tests/perft/<variant>.tsv and
tests/games/<variant>.tsv (the 10x10 lidraughts variants Damas checks against it).

    target/venv/bin/python tests/pydraughts/perft_data.py VARIANT --out tests/perft/VARIANT.tsv \
        --games-out tests/games/VARIANT.tsv [--positions 30] [--seed 1]

Perft: from the start to --start-depth, then --positions positions from random games (20 to
60 plies) at --depth. Captures with the same start, end and captured set count once (Damas's
"drop" convention). A position where the other side has crowned (Breakthrough) has no move.

Games: --games random games from the start, each line the moves so far (Hub notation, from
and to then the captured squares) and the sorted legal moves after them, so that rules that
read the history (Frisian's king-move limit) are checked too.
"""
import argparse
import random
import sys
import time

from draughts.core.game import Game

SQUARES = 50


def key(move, captures):
    caps = tuple(sorted(c for c in captures if c is not None))
    return (move[0][0], move[-1][1], caps)


def legal(game, variant):
    if variant == "breakthrough" and game.has_player_won(3 - game.whose_turn()):
        return []
    moves, captures = game.legal_moves()
    seen = {}
    for m, c in zip(moves, captures):
        seen.setdefault(key(m, c), m)
    return list(seen.items())


def perft(game, depth, variant):
    moves = legal(game, variant)
    if depth == 1:
        return len(moves)
    n = 0
    for _, m in moves:
        g = game.copy_fast()
        g.push(m)
        n += perft(g, depth - 1, variant)
    return n


def hub(k):
    frm, to, caps = k
    sep = "x" if caps else "-"
    return sep.join(str(s) for s in (frm, to) + caps)


def fen(game):
    f = game.get_fen()
    side, white, black = f[0], [], []
    for sq in range(1, SQUARES + 1):
        p = f[sq]
        if p in "wW":
            white.append(("K" if p == "W" else "") + str(sq))
        elif p in "bB":
            black.append(("K" if p == "B" else "") + str(sq))
    return f"{side}:W{','.join(white)}:B{','.join(black)}"


def random_game(variant, rng, plies):
    g = Game(variant=variant)
    played = []
    for _ in range(plies):
        moves = legal(g, variant)
        if not moves:
            break
        k, m = rng.choice(moves)
        g.push(m)
        played.append(hub(k))
    return g, played


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("--start-depth", type=int, default=5)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--games-out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    t = time.time()
    with open(a.out, "w") as out:
        out.write(f"# Perft of {a.variant}. Columns: fen (or \"start\"), depth, nodes, convention.\n")
        out.write("# Source: pydraughts 0.6.7 (an independent generator), by\n")
        out.write(f"# tests/pydraughts/perft_data.py {a.variant} --seed {a.seed}; captures with the same\n")
        out.write("# start, end and captured set counted once (\"drop\").\n")
        for d in range(1, a.start_depth + 1):
            out.write(f"start\t{d}\t{perft(Game(variant=a.variant), d, a.variant)}\tdrop\n")
            out.flush()
        done = 0
        while done < a.positions:
            g, _ = random_game(a.variant, rng, rng.randint(20, 60))
            if not legal(g, a.variant) or g.get_winner() is not None:
                continue
            # From the position alone, without the game's history (a FEN carries none).
            f = fen(g)
            out.write(f"{f}\t{a.depth}\t{perft(Game(variant=a.variant, fen=f), a.depth, a.variant)}\tdrop\n")
            out.flush()
            done += 1
    with open(a.games_out, "w") as out:
        out.write(f"# Random {a.variant} games: the moves from the start (Hub notation), a tab, the\n")
        out.write("# legal moves after them, sorted. Source: pydraughts 0.6.7, by\n")
        out.write(f"# tests/pydraughts/perft_data.py {a.variant} --seed {a.seed}.\n")
        for _ in range(a.games):
            g = Game(variant=a.variant)
            played = []
            for _ in range(a.plies):
                moves = legal(g, a.variant)
                out.write(" ".join(played) + "\t" + " ".join(sorted(hub(k) for k, _ in moves)) + "\n")
                if not moves or g.get_winner() is not None:
                    break
                k, m = rng.choice(moves)
                g.push(m)
                played.append(hub(k))
    print(f"{a.variant}: {time.time() - t:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
