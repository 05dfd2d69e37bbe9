#!/usr/bin/env bash
# A real Slurm on this one machine runs the recipes in slurm/: a 4-part self-play array and
# a 4-part match array, each merged by a dependent job, then compared with the same runs
# made here in one piece. They must be identical: the data byte for byte, the match's
# summary, result line and PDN.
#
# Installs Debian's slurm-wlm and munge when they are missing (as root, with apt); skips
# with a message, exit 0, where it cannot. Its cluster lives under target/slurm-test: its
# own slurm.conf (SLURM_CONF), state and logs; the daemons it starts are stopped at exit.
# DAMAS names the binary to run (default: target/ci/damas, built if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null; then
        echo "slurm test skipped: slurm-wlm and munge are not installed and apt-get as root is not available"
        exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq slurm-wlm munge > /dev/null \
        && ! { apt-get update -qq && apt-get install -y -qq slurm-wlm munge > /dev/null; }; then
        echo "slurm test skipped: apt-get could not install slurm-wlm and munge"
        exit 0
    fi
fi

DAMAS="${DAMAS:-$root/target/ci/damas}"
if [ ! -x "$DAMAS" ]; then
    cargo build --profile ci
fi
export DAMAS

base="$root/target/slurm-test"
rm -rf "$base"
mkdir -p "$base"/{spool,state,work,local}
host="$(hostname -s)"
cpus="$(nproc)"
memory="$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)"
cat > "$base/slurm.conf" <<CONF
ClusterName=damas-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
SlurmUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/slurmctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/slurmctld.log
SlurmdLogFile=$base/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$base/slurm.conf"

stop() {
    for d in slurmd slurmctld; do
        if [ -f "$base/$d.pid" ]; then
            kill "$(cat "$base/$d.pid")" 2> /dev/null || true
        fi
    done
}
trap stop EXIT

# munge: the key the package made, or a new one; the daemon runs as its own user.
if ! pgrep -x munged > /dev/null; then
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    runuser -u munge -- /usr/sbin/munged
fi
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    if sinfo -h -o %T 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then
        break
    fi
    sleep 1
done
sinfo

# Wait until job $1 has ended; it must have COMPLETED.
wait_job() {
    local state
    for _ in $(seq 900); do
        state=$(scontrol show job "$1" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -1 || true)
        case "$state" in
        JobState=COMPLETED) return 0 ;;
        JobState=PENDING | JobState=RUNNING | JobState=CONFIGURING | JobState=COMPLETING) sleep 1 ;;
        *)
            echo "job $1 ended $state" >&2
            cat "$WORK"/*.log >&2 || true
            exit 1
            ;;
        esac
    done
    echo "job $1 did not end in 15 minutes" >&2
    exit 1
}

# The ids submit.sh prints: "<kind> array job A (N tasks), merge job M".
submit() {
    local line
    line=$(tests/cluster/slurm/submit.sh "$@")
    echo "$line" >&2
    echo "${line##* }"
}

export WORK="$base/work/selfplay" VARIANT=english GAMES=8 NODES=300 SEED=5
merge=$(submit selfplay 4)
wait_job "$merge"
ls -l "$WORK"/selfplay.*.bin
"$DAMAS" selfplay --variant english --games 8 --nodes 300 --seed 5 --threads 2 \
    --out "$base/local/selfplay.bin" 2> /dev/null
cmp "$WORK/selfplay.bin" "$base/local/selfplay.bin"
echo "selfplay: the merged 4 shards equal one run ($(stat -c %s "$WORK/selfplay.bin") bytes)"

export WORK="$base/work/match"
export MATCH_ARGS="--variant english --player 'name=d3 depth=3 book=false' --player 'name=d2 depth=2 book=false' --games 8 --seed 2"
merge=$(submit match 4)
wait_job "$merge"
ls -l "$WORK"/match.*.results
eval "set -- $MATCH_ARGS"
"$DAMAS" match "$@" --concurrency 1 --pdn "$base/local/match.pdn" > "$base/local/match.summary" 2> /dev/null
diff "$WORK/match.summary" "$base/local/match.summary"
cmp "$WORK/match.pdn" "$base/local/match.pdn"
echo "match: the merged 4 parts equal one run: $(tail -1 "$WORK/match.summary")"
echo "slurm test passed"
