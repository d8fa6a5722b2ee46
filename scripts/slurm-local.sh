#!/usr/bin/env bash
# Runs scripts/slurm-array.sh for real on a one-node Slurm cluster on this machine (Debian's
# slurm-wlm and munge; needs root): starts munged, slurmctld and slurmd, submits a 3-task array
# over a dataset, waits, merges the shards with `bitsolve merge`, checks the merged rows against
# one unsharded run, reports, and stops the daemons it started.
# Usage: sudo scripts/slurm-local.sh [game] [dataset] [outdir]      (not part of CI)
#   install first: apt-get install -y slurm-wlm
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-ataxx}
dataset=${2:-datasets/ataxx/random-small.tsv}
outdir=${3:-results/slurm}
export TIME_LIMIT=${TIME_LIMIT:-5}
host=$(hostname -s)
cpus=$(nproc)
work=$(mktemp -d /tmp/bitsolve-slurm.XXXXXX)
cargo build --release --quiet

mkdir -p /etc/munge /run/munge /var/log/munge /var/lib/munge
[ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
chmod 0400 /etc/munge/munge.key
pids=()
if ! munge -n >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
  sleep 1
  pids+=("$(cat /run/munge/munged.pid)")
fi

mkdir -p "$work/ctld" "$work/d" /etc/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=bitsolve
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=4096 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
stop() {
  for f in "$work/slurmd.pid" "$work/slurmctld.pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap stop EXIT
/usr/sbin/slurmctld
/usr/sbin/slurmd
for _ in $(seq 30); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo
rm -rf "$outdir" && mkdir -p "$outdir"
echo "+ sbatch --wait --array=0-2 scripts/slurm-array.sh $game $dataset $outdir"
sbatch --wait --array=0-2 --output="$work/slurm-%A_%a.out" scripts/slurm-array.sh "$game" "$dataset" "$outdir"
sacct >/dev/null 2>&1 || true
for f in "$work"/slurm-*.out; do echo "== $(basename "$f")"; grep -v '^\(| \||---\)' "$f" | head -3; done
./target/release/bitsolve merge --out "$outdir/all.csv" "$outdir"/shard-*.csv
# The merged shards hold exactly the rows of one unsharded run (same keys, same values).
./target/release/bitsolve solve --game "$game" --solver "${SOLVERS:-alphabeta,pns,dfpn}" \
  --time-limit "$TIME_LIMIT" --out "$work/single.csv" "$dataset" >/dev/null
key() { cut -d, -f1-8 "$1" | tail -n +2 | sort; }
if diff <(key "$outdir/all.csv") <(key "$work/single.csv") >/dev/null; then
  echo "merged shards = one unsharded run: $(key "$outdir/all.csv" | wc -l) rows, same keys and values"
else
  echo "merged shards differ from the unsharded run (unknown rows near the time limit may):"
  diff <(key "$outdir/all.csv") <(key "$work/single.csv") || true
fi
./target/release/bitsolve report "$outdir/all.csv" --format md
