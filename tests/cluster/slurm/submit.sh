#!/usr/bin/env bash
# Submit a sharded job and its merge step to Slurm; prints both job ids.
#   DAMAS=… WORK=… [VARIANT= GAMES= NODES= SEED= TRAIN=1] submit.sh selfplay N
#   DAMAS=… WORK=… MATCH_ARGS="--variant … --player '…' …" submit.sh match N
# The merge job runs once every array task has ended well (afterok); `sacct -j ID` follows
# them, and the merged files are in $WORK.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kind="${1:?selfplay or match}"
n="${2:?the number of parts}"
: "${DAMAS:?the damas binary}" "${WORK:?a shared folder}"
mkdir -p "$WORK"
export DAMAS WORK KIND="$kind"
array=$(sbatch --parsable --chdir="$WORK" --array="0-$((n - 1))" "$here/$kind.sbatch")
merge=$(sbatch --parsable --chdir="$WORK" --dependency="afterok:$array" "$here/merge.sbatch")
echo "$kind array job $array ($n tasks), merge job $merge"
