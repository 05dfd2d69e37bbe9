"""Play Damas over DXP with pydraughts' DXPEngine, the DXP client lidraughts-bot uses.

Usage: python dxp_games.py <path to damas>
Starts `damas dxp --listen 127.0.0.1:0`, then plays two games over TCP, Damas as White and
as Black, against random legal replies. Every move Damas sends must be legal in pydraughts'
own generator and arrive within the time the game request allows; the games run to the end
or 300 plies, and Damas must win them. Exits non-zero on the first failure.
"""
import random
import subprocess
import sys
import threading

import draughts
from draughts.engine import DXPEngine

MAX_PLIES = 300
MOVE_WAIT = 30.0


def legal_board_moves(board):
    return [m.board_move for m in board.legal_moves()]


def engine_move(engine, board):
    """engine.play, which spins forever when the move it gets is illegal, under a deadline."""
    result = {}
    worker = threading.Thread(target=lambda: result.update(r=engine.play(board)), daemon=True)
    worker.start()
    worker.join(MOVE_WAIT)
    if worker.is_alive():
        raise SystemExit(f"no legal move from Damas within {MOVE_WAIT}s at ply {len(board.move_stack)}")
    return result["r"].move


def play(address, damas_white, seed):
    rng = random.Random(seed)
    host, port = address.rsplit(":", 1)
    engine = DXPEngine(
        options={"engine-opened": True, "ip": host, "port": port, "max-moves": 999, "initial-time": 60}
    )
    board = draughts.Board(variant="standard")
    if not damas_white:
        # pydraughts gives the engine the side to move at its first play(): move first.
        board.push(rng.choice(board.legal_moves()))
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        if (board.turn == draughts.WHITE) == damas_white:
            move = engine_move(engine, board)
            if move is None or move.board_move not in legal_board_moves(board):
                raise SystemExit(f"illegal move from Damas at ply {len(board.move_stack)}")
        else:
            move = rng.choice(board.legal_moves())
        board.push(move)
    engine.quit()
    side = "white" if damas_white else "black"
    print(f"damas {side}: plies={len(board.move_stack)} over={board.is_over()} winner={board.winner()}")
    if not engine.id.get("name", "").startswith("Damas"):
        raise SystemExit(f"GAMEACC names {engine.id.get('name')!r}")
    if board.winner() != (draughts.WHITE if damas_white else draughts.BLACK):
        raise SystemExit(f"Damas ({side}) did not beat random moves")


def main():
    damas = subprocess.Popen(
        [sys.argv[1], "dxp", "--listen", "127.0.0.1:0", "--no-book", "--hash", "16"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        first = damas.stdout.readline().strip()
        prefix = "dxp: listening on "
        if not first.startswith(prefix):
            raise SystemExit(f"unexpected first line {first!r}")
        address = first[len(prefix):]
        # Keep reading the log so the pipe never fills.
        threading.Thread(target=lambda: [None for _ in damas.stdout], daemon=True).start()
        play(address, True, 1)
        play(address, False, 2)
    finally:
        damas.kill()
        damas.wait()
        damas.stdout.close()


if __name__ == "__main__":
    main()
