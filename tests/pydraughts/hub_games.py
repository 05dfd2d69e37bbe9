"""Drive Damas through complete games with pydraughts' HubEngine, as lidraughts-bot does.

Usage: python hub_games.py <path to damas>
Plays International, Italian, the lidraughts 10x10 variants (Frisian, Frysk!, Antidraughts,
Breakthrough) and, with the Hub param pydraughts=true, English, Russian, Brazilian and
Turkish (whose boards or moves pydraughts writes in its own way), to the end or 80 plies under
clock, move-time and depth limits. Every move Damas returns must be legal in pydraughts' own
generator, and a clock must never run out. Exits non-zero on the first failure.
"""
import random
import sys
import time

import draughts
from draughts.engine import HubEngine, Limit

MAX_PLIES = 80


def legal_board_moves(board):
    return [m.board_move for m in board.legal_moves()]


# pydraughts writes these variants' boards or moves differently: Damas reads them so when told.
DIALECT = {"english", "russian", "brazilian", "turkish"}


def launch(damas, variant):
    engine = HubEngine([damas, "hub"])
    engine.setoption("variant", variant)
    if variant in DIALECT:
        engine.setoption("pydraughts", True)
    return engine


def play(damas, variant, kind):
    engine = launch(damas, variant)
    try:
        engine.setoption("hash", 16)
        engine.init()
        board = draughts.Board(variant=variant)
        clock = {draughts.WHITE: 3.0, draughts.BLACK: 3.0}
        inc = 0.05
        plies = 0
        while not board.is_over() and plies < MAX_PLIES:
            if kind == "clock":
                limit = Limit(time=clock[board.turn], inc=inc)
            elif kind == "move-time":
                limit = Limit(movetime=0.05)
            else:
                limit = Limit(depth=4)
            side = board.turn
            start = time.monotonic()
            result = engine.play(board, limit, False)
            spent = time.monotonic() - start
            if kind == "clock":
                clock[side] += inc - spent
                if clock[side] <= 0:
                    raise SystemExit(f"{variant} {kind}: lost on time at ply {plies}")
            move = result.move
            if move is None or move.board_move not in legal_board_moves(board):
                raise SystemExit(
                    f"{variant} {kind}: illegal move {getattr(move, 'hub_move', None)} at ply {plies}"
                )
            board.push(move)
            plies += 1
        over = board.is_over()
        print(f"{variant:<9} {kind:<9} plies={plies} over={over} winner={board.winner()}")
        engine.quit()
    finally:
        try:
            engine.kill_process()
        except Exception:
            pass


def against_random(damas, variant):
    """Damas (White) against random legal moves: the game must end by the rules, won."""
    rng = random.Random(7)
    engine = launch(damas, variant)
    try:
        engine.init()
        board = draughts.Board(variant=variant)
        plies = 0
        while not board.is_over() and plies < 400:
            if board.turn == draughts.WHITE:
                move = engine.play(board, Limit(depth=4), False).move
                if move is None or move.board_move not in legal_board_moves(board):
                    raise SystemExit(f"{variant} random: illegal move at ply {plies}")
            else:
                move = rng.choice(board.legal_moves())
            board.push(move)
            plies += 1
        if not board.is_over() or board.winner() != draughts.WHITE:
            raise SystemExit(f"{variant} random: not won after {plies} plies")
        print(f"{variant:<9} random    plies={plies} over=True winner=white")
        engine.quit()
    finally:
        try:
            engine.kill_process()
        except Exception:
            pass


def main():
    damas = sys.argv[1]
    for variant in ["standard", "italian"]:
        for kind in ["clock", "move-time", "depth"]:
            play(damas, variant, kind)
        against_random(damas, variant)
    for variant in ["frisian", "frysk", "antidraughts", "breakthrough", "english", "russian", "brazilian", "turkish"]:
        for kind in ["clock", "depth"]:
            play(damas, variant, kind)
        against_random(damas, variant)


if __name__ == "__main__":
    main()
