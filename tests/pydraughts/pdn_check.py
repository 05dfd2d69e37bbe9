"""Read PDN files written by Damas with pydraughts' PDNReader and replay every game.

Usage: python pdn_check.py <variant> <file.pdn> <expected games>
Each game must name the expected variant in its GameType tag, and every move must be one
of pydraughts' own legal moves in its position. Exits non-zero on the first failure.
"""
import sys

import draughts
from draughts import Move
from draughts.PDN import PDNReader


def main():
    variant, path, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
    games = PDNReader(filename=path).games
    if len(games) != expected:
        sys.exit(f"{path}: {len(games)} games read, {expected} written")
    plies = 0
    for number, game in enumerate(games, 1):
        if game.variant != variant:
            sys.exit(f"{path} game {number}: variant {game.variant!r}, expected {variant!r}")
        fen = game.tags.get("FEN")
        board = draughts.Board(variant=variant, fen=fen) if fen else draughts.Board(variant=variant)
        for ply, text in enumerate(game.moves, 1):
            legal = [m.board_move for m in board.legal_moves()]
            move = Move(board, pdn_move=text)
            if move.board_move not in legal:
                sys.exit(f"{path} game {number} ply {ply}: {text} is not legal for pydraughts")
            board.push(move)
            plies += 1
        if game.game_ending not in ("2-0", "0-2", "1-1", "*"):
            sys.exit(f"{path} game {number}: result {game.game_ending!r}")
    print(f"{path}: {len(games)} games, {plies} plies read and replayed by pydraughts")


if __name__ == "__main__":
    main()
