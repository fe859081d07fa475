# slurm-lib.sh - a private single-node Slurm for the job-array tests
# (slurm-campaign.sh, slurm-exhaustive.sh), sourced after lib.sh: starts
# munged, slurmctld and slurmd of its own (private key, ports, spool and
# state folders) in $tmp, under /tmp, and stops them on exit.  Skips
# (77) when Slurm (Debian slurm-wlm) or munge is not installed, or not
# as root.  `fail WHAT` counts a failure, shows the daemons' logs, exits.
for p in munged slurmctld slurmd sbatch squeue jq; do
  if ! command -v $p >/dev/null 2>&1 && [ ! -x "/usr/sbin/$p" ]; then
    skip "$p not installed (Debian: apt-get install slurm-wlm munge jq)"
  fi
done
[ "$(id -u)" = 0 ] || skip "a private slurmd needs root"
PATH=$PATH:/usr/sbin
# under /tmp, readable by the daemons, whatever TMPDIR says
make_tmp /tmp
chmod 755 "$tmp"
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
  sleep 0.3
  for p in $pids; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  bad "$*"
  for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "== $f"; tail -20 "$f"; }; done
  exit 1
}

# munge with a key and socket of its own
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munge.seed" || skip "munged does not start here"
pids="$pids $(cat "$tmp/munged.pid")"

host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=lctest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=lc Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out.log" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/slurmd.out.log" 2>&1 &
pids="$pids $!"
n=0
until sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)'; do
  n=$((n + 1))
  [ $n -lt 100 ] || skip "the private Slurm did not come up (see slurmctld/slurmd logs): $(tail -2 "$tmp/slurmd.log" 2>/dev/null)"
  sleep 0.2
done

