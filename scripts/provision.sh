#!/usr/bin/env bash
# Engram provisioning: makes sure the backing services exist on this machine.
#
#   - PostgreSQL >= 15 with pgvector >= 0.7 available (plus contrib btree_gin, pg_trgm)
#   - NATS server with JetStream enabled
#   - ps (procps): `npm start` stops its services through it (concurrently -> tree-kill)
#   - curl: the README's HTTP API example (and its test) call the api with it
#   - chromium: the dashboard's browser tests drive Debian's headless Chromium (no browser download)
#   - Node dependencies installed (npm ci when package-lock.json changed)
#
# Used by `npm start`, `npm test` and CI. It checks first (cheaply); only when
# something is missing AND it is meant to run on this machine (127.0.0.1,
# localhost, ::1) does it install/start it -- and only as root on Debian.
# Everything else ends with exit 2 and a message saying what to do instead.
#
# Exit codes: 0 ready | 1 not ready (--check) or provisioning failed |
#             2 needs manual action (not root / not Debian / remote / misconfigured) | 64 usage
set -euo pipefail

readonly MIN_PG_NUM=150000
readonly MIN_VECTOR=0.7
readonly TRIXIE_SOURCES_NAME=engram-trixie-src.sources

ENGRAM_PG_ADMIN_URL="${ENGRAM_PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
NATS_STORE_DIR="${NATS_STORE_DIR:-/var/lib/engram/nats}"
OS_RELEASE_FILE="${ENGRAM_OS_RELEASE_FILE:-/etc/os-release}"
# Private apt state for the trixie deb-src entry (kept out of /etc/apt so the
# machine's own `apt-get update` is not slowed down or affected by it).
ENGRAM_APT_DIR="${ENGRAM_APT_DIR:-/var/lib/engram/apt}"
PROBE_TIMEOUT="${ENGRAM_PROBE_TIMEOUT:-2}"

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
STAMP_FILE="$REPO_ROOT/node_modules/.engram-install-stamp"
NATS_CONFIG_FILE="$REPO_ROOT/deploy/nats/engram.conf"
LOG_FILE=/var/log/engram-provision.log

CHECK_ONLY=0
SKIP_NODE=0

usage() {
  cat <<EOF
Usage: scripts/provision.sh [--check] [--skip-node] [-h|--help]

Makes sure Engram's backing services are available on this machine:
  PostgreSQL >= 15 with pgvector >= 0.7 (and btree_gin, pg_trgm), NATS with JetStream,
  and the Node dependencies (npm ci when package-lock.json changed).
Missing local services are installed and started (root on Debian only).

Options:
  --check      only check and report; exit 1 if anything is missing (never installs)
  --skip-node  skip the npm ci step
  -h, --help   show this help

Environment:
  ENGRAM_PG_ADMIN_URL  superuser URL for checks/set-up (default postgres://postgres@127.0.0.1:5432/postgres)
  NATS_URL             NATS server URL (default nats://127.0.0.1:4222)
  NATS_STORE_DIR       JetStream store dir when this script starts nats-server (default /var/lib/engram/nats)

Exit codes: 0 ready, 1 not ready/failed, 2 needs manual action.
EOF
}

ORIG_ARGS=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK_ONLY=1 ;;
    --skip-node) SKIP_NODE=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "provision: unknown option: $1" >&2; usage >&2; exit 64 ;;
  esac
  shift
done

log() { printf 'provision: %s\n' "$*"; }
warn() { printf 'provision: %s\n' "$*" >&2; }
die() { # die <code> <message...>
  local code="$1"; shift
  warn "$*"
  exit "$code"
}
have() { command -v "$1" >/dev/null 2>&1; }

# true when version $1 >= version $2
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

is_local_host() {
  case "$1" in
    127.0.0.1 | localhost | ::1 | "") return 0 ;;
    *) return 1 ;;
  esac
}

hostport() { # display form host:port ([v6]:port)
  case "$1" in
    *:*) printf '[%s]:%s' "$1" "$2" ;;
    "") printf 'local socket (port %s)' "$2" ;;
    *) printf '%s:%s' "$1" "$2" ;;
  esac
}

# Split a URL into URL_HOST / URL_PORT. Accepts scheme://[user[:pw]@]host[:port][/path][?query];
# with a comma-separated server list the first entry is used.
parse_url() { # parse_url <url> <default-port>
  local rest="$1" auth hostport_part
  rest="${rest#*://}"
  rest="${rest%%\?*}"
  auth="${rest%%/*}"
  auth="${auth%%,*}"
  hostport_part="${auth##*@}"
  URL_PORT=""
  case "$hostport_part" in
    \[*)
      URL_HOST="${hostport_part#\[}"
      URL_HOST="${URL_HOST%%\]*}"
      case "$hostport_part" in *\]:*) URL_PORT="${hostport_part##*\]:}" ;; esac
      ;;
    *:*)
      URL_HOST="${hostport_part%%:*}"
      URL_PORT="${hostport_part#*:}"
      ;;
    *) URL_HOST="$hostport_part" ;;
  esac
  case "$URL_HOST" in %2[Ff]* | /*) URL_HOST="" ;; esac # unix socket directory
  URL_PORT="${URL_PORT:-$2}"
  case "$URL_PORT" in '' | *[!0-9]*) die 2 "invalid port in URL: $1" ;; esac
}

redact_url() { printf '%s' "$1" | sed -E 's#(://[^:/@]+):[^@/]*@#\1:***@#'; }

parse_url "$ENGRAM_PG_ADMIN_URL" 5432
PG_HOST="$URL_HOST" PG_PORT="$URL_PORT"
parse_url "$NATS_URL" 4222
NATS_HOST="${URL_HOST:-127.0.0.1}" NATS_PORT="$URL_PORT"

# ---------------------------------------------------------------- checks ---

# Prints the first line a TCP server sends. Exit status: 0 got a line,
# 3 connected but the server said nothing (in time), other = could not connect.
tcp_first_line() { # tcp_first_line <host> <port>
  # shellcheck disable=SC2016 # expanded by the inner bash
  local script='exec 3<>"/dev/tcp/$1/$2" || exit 1; IFS= read -r -t 1 line <&3 || exit 3; printf "%s" "$line"'
  if have timeout; then
    timeout "$PROBE_TIMEOUT" bash -c "$script" _ "$1" "$2" 2>/dev/null
  else
    bash -c "$script" _ "$1" "$2" 2>/dev/null
  fi
}

# shellcheck disable=SC2016 # expanded by the inner bash
tcp_open() { # tcp_open <host> <port>: something accepts connections
  if have timeout; then
    timeout "$PROBE_TIMEOUT" bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null
  else
    bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null
  fi
}

# NATS_STATE: ok | nojs | notnats | down ; NATS_VERSION
nats_check() {
  local info rc=0
  info="$(tcp_first_line "$NATS_HOST" "$NATS_PORT")" || rc=$?
  info="${info%$'\r'}"
  NATS_VERSION="$(printf '%s' "$info" | sed -n 's/.*"version":"\([^"]*\)".*/\1/p')"
  if [ "$rc" = 3 ]; then
    NATS_STATE=notnats
  elif [ -z "$info" ]; then
    NATS_STATE=down
  elif [ "${info#INFO }" = "$info" ]; then
    NATS_STATE=notnats
  elif printf '%s' "$info" | grep -q '"jetstream":true'; then
    NATS_STATE=ok
  else
    NATS_STATE=nojs
  fi
}

# PG_STATE: ok | nopsql | unreachable | auth | error | old | novector | nocontrib
# PG_VERSION, PG_MAJOR, PG_VECTOR (best available pgvector version), PG_ERR
pg_check() {
  PG_VERSION="" PG_MAJOR="" PG_VECTOR="" PG_ERR=""
  if ! have psql; then PG_STATE=nopsql; return; fi
  local out rc=0 errf
  errf="$(mktemp)"
  out="$(PGCONNECT_TIMEOUT="${PGCONNECT_TIMEOUT:-3}" psql "$ENGRAM_PG_ADMIN_URL" -X -w -q -A -t -F '|' -v ON_ERROR_STOP=1 -c \
    "select current_setting('server_version_num'),
            split_part(current_setting('server_version'), ' ', 1),
            coalesce((select string_agg(version, ' ') from pg_available_extension_versions where name = 'vector'), ''),
            (select count(distinct name) from pg_available_extensions where name in ('btree_gin', 'pg_trgm'))" \
    2>"$errf")" || rc=$?
  PG_ERR="$(head -c 2000 "$errf" | sed -e 's/^psql: //' -e 's/^error: //' | tr '\n' ' ' | sed 's/ *$//')"
  rm -f "$errf"
  if [ "$rc" -ne 0 ]; then
    case "$PG_ERR" in
      *"authentication failed"* | *"no password supplied"* | *"no pg_hba.conf entry"* | *"password is required"*) PG_STATE=auth ;;
      *"Connection refused"* | *"timeout expired"* | *"No route to host"* | *"could not connect"* | *"could not translate host"* | *"Network is unreachable"* | *"No such file or directory"*) PG_STATE=unreachable ;;
      *) PG_STATE=error ;;
    esac
    return
  fi
  local num vers contrib v
  IFS='|' read -r num PG_VERSION vers contrib <<<"$out"
  PG_MAJOR=$((num / 10000))
  for v in $vers; do
    if [ -z "$PG_VECTOR" ] || version_ge "$v" "$PG_VECTOR"; then PG_VECTOR="$v"; fi
  done
  if [ "$num" -lt "$MIN_PG_NUM" ]; then
    PG_STATE=old
  elif [ -z "$PG_VECTOR" ] || ! version_ge "$PG_VECTOR" "$MIN_VECTOR"; then
    PG_STATE=novector
  elif [ "$contrib" != 2 ]; then
    PG_STATE=nocontrib
  else
    PG_STATE=ok
  fi
}

stamp_hash() {
  if have sha256sum; then sha256sum "$REPO_ROOT/package-lock.json" | cut -d' ' -f1
  else shasum -a 256 "$REPO_ROOT/package-lock.json" | cut -d' ' -f1; fi
}

# NODE_STATE: ok | skip | nolock | stale
node_check() {
  if [ "$SKIP_NODE" = 1 ]; then NODE_STATE=skip; return; fi
  if [ ! -f "$REPO_ROOT/package-lock.json" ]; then NODE_STATE=nolock; return; fi
  if [ -d "$REPO_ROOT/node_modules" ] && [ -f "$STAMP_FILE" ] && [ "$(cat "$STAMP_FILE")" = "$(stamp_hash)" ]; then
    NODE_STATE=ok
  else
    NODE_STATE=stale
  fi
}

# TOOLS_STATE: ok | missing. Minimal Debian (debootstrap minbase, the debian:12 image) has neither
# procps nor curl (nor chromium, which the dashboard's browser tests drive at /usr/bin/chromium).
tools_check() { if have ps && have curl && have chromium; then TOOLS_STATE=ok; else TOOLS_STATE=missing; fi; }
readonly TOOLS_PROBLEM="ps (procps), curl or chromium is not installed; npm start needs ps to stop its services, the README's HTTP example curl, the dashboard's browser tests chromium"

pg_problem() {
  local at; at="$(hostport "$PG_HOST" "$PG_PORT")"
  case "$PG_STATE" in
    nopsql) echo "PostgreSQL: psql (postgresql-client) is not installed" ;;
    unreachable) echo "PostgreSQL: nothing answers at $at" ;;
    auth) echo "PostgreSQL at $at rejected the connection: $PG_ERR" ;;
    error) echo "PostgreSQL at $at: $PG_ERR" ;;
    old) echo "PostgreSQL at $at is version $PG_VERSION; Engram needs >= 15" ;;
    novector) echo "PostgreSQL $PG_VERSION at $at: pgvector >= $MIN_VECTOR is not available (found: ${PG_VECTOR:-none})" ;;
    nocontrib) echo "PostgreSQL $PG_VERSION at $at: contrib extensions btree_gin/pg_trgm are not available" ;;
  esac
}

nats_problem() {
  local at; at="$(hostport "$NATS_HOST" "$NATS_PORT")"
  case "$NATS_STATE" in
    down) echo "NATS: nothing answers at $at" ;;
    notnats) echo "NATS: $at accepts connections but sends no NATS greeting (INFO line); is it a NATS server?" ;;
    nojs) echo "NATS ${NATS_VERSION:-?} at $at runs WITHOUT JetStream; restart it with JetStream enabled (nats-server -js, or 'jetstream {}' in its config)" ;;
  esac
}

# ------------------------------------------------------- debian helpers ---

os_id() { sed -n 's/^ID=//p' "$OS_RELEASE_FILE" 2>/dev/null | tr -d '"'"'" | head -n1; }

pkg_installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }

APT_UPDATED=0
apt_quiet() { # apt_quiet <apt-get args...>: output goes to the log file
  DEBIAN_FRONTEND=noninteractive apt-get -qq -o Dpkg::Use-Pty=0 "$@" >>"$LOG_FILE" 2>&1
}
apt_fail() {
  warn "$1 failed; last lines of $LOG_FILE:"
  tail -n 20 "$LOG_FILE" >&2 || true
  exit 1
}
apt_install() {
  log "installing $* (apt-get)"
  # Refresh the lists once per run before installing: with stale lists (a fresh
  # image, a machine not updated for a while) apt would install superseded versions
  # without their security fixes, as long as those are still on the mirror.
  if [ "$APT_UPDATED" = 0 ]; then
    log "apt-get update"
    apt_quiet update || warn "apt-get update failed; trying with the existing package lists"
    APT_UPDATED=1
  fi
  apt_quiet install -y --no-install-recommends "$@" || apt_fail "apt-get install $*"
}
ensure_pkgs() {
  local p missing=()
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

# "ver name port status" of Debian clusters (postgresql-common)
clusters() { if have pg_lsclusters; then pg_lsclusters -h 2>/dev/null | awk '{print $1, $2, $3, $4}'; fi; }
cluster_on_port() { clusters | awk -v p="$PG_PORT" '$3 == p {print; exit}'; }
# Clusters this script installed/created carry a marker in their data directory
# (removed with the cluster by pg_dropcluster); only those get their pg_hba.conf changed.
cluster_datadir() { pg_lsclusters -h 2>/dev/null | awk -v v="$1" -v n="$2" '$1 == v && $2 == n {print $6; exit}'; }
mark_cluster_ours() {
  local d; d="$(cluster_datadir "$1" "$2")"
  if [ -n "$d" ] && [ -d "$d" ]; then touch "$d/.engram-provisioned" 2>/dev/null || true; fi
}
cluster_is_ours() {
  local d; d="$(cluster_datadir "$1" "$2")"
  [ -n "$d" ] && [ -f "$d/.engram-provisioned" ]
}

# ------------------------------------------------------------ postgres ---

pg_wait() { # wait until the server answers (any state but unreachable)
  for _ in $(seq 1 30); do
    pg_check
    [ "$PG_STATE" != unreachable ] && return 0
    sleep 0.5
  done
  return 0
}

pg_ensure_cluster_running() {
  local line ver name port status newest
  line="$(cluster_on_port)"
  if [ -z "$line" ]; then
    if [ -n "$(clusters)" ]; then
      die 2 "no PostgreSQL cluster on port $PG_PORT; existing clusters:
$(clusters | sed 's/^/    /')
  Set ENGRAM_PG_ADMIN_URL to one of them (it must be >= 15)."
    fi
    newest="$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/postgres' 2>/dev/null | awk -F/ '{print $5}' | sort -V | tail -n1)"
    [ -n "$newest" ] || die 1 "PostgreSQL server binaries not found under /usr/lib/postgresql"
    log "creating PostgreSQL $newest cluster 'main' on port $PG_PORT"
    pg_createcluster "$newest" main --port "$PG_PORT" >>"$LOG_FILE" 2>&1 || apt_fail "pg_createcluster"
    mark_cluster_ours "$newest" main
    line="$(cluster_on_port)"
  fi
  read -r ver name port status <<<"$line"
  if [ "$status" != online ]; then
    log "starting PostgreSQL cluster $ver/$name (port $port)"
    pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start >>"$LOG_FILE" 2>&1 || apt_fail "pg_ctlcluster $ver $name start"
  fi
}

pg_trust_local_tcp() { # only for clusters this script installed/created
  local line ver name port status hba
  line="$(cluster_on_port)"
  [ -n "$line" ] || return 1
  read -r ver name port status <<<"$line"
  cluster_is_ours "$ver" "$name" || return 1
  hba="/etc/postgresql/$ver/$name/pg_hba.conf"
  [ -f "$hba" ] || return 1
  if ! grep -q 'engram-provision' "$hba"; then
    log "allowing passwordless TCP connections from this machine (pg_hba.conf of $ver/$name)"
    local tmp; tmp="$(mktemp)"
    {
      echo "# engram-provision: passwordless TCP from this machine (set up by scripts/provision.sh)"
      echo "host    all    all    127.0.0.1/32    trust    # engram-provision"
      echo "host    all    all    ::1/128         trust    # engram-provision"
      cat "$hba"
    } >"$tmp"
    cat "$tmp" >"$hba" # keeps owner and mode
    rm -f "$tmp"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" reload >>"$LOG_FILE" 2>&1 || true
  sleep 0.5
}

# A new cluster gets Debian's 128 MB of shared_buffers: a search reads a few thousand pages of
# indexes, and under concurrent searches they evict each other and come back from the OS cache.
# Clusters this script created are sized for the machine instead (a quarter of its memory, at
# most 8 GB), once; a cluster it did not create is left as its owner configured it.
pg_size_memory() {
  local line ver name port status conf mem_mb shared cache
  line="$(cluster_on_port)"
  [ -n "$line" ] || return 0
  read -r ver name port status <<<"$line"
  cluster_is_ours "$ver" "$name" || return 0
  conf="/etc/postgresql/$ver/$name/conf.d/engram-memory.conf"
  [ -d "${conf%/*}" ] && [ ! -f "$conf" ] || return 0
  mem_mb="$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)"
  shared=$((mem_mb / 4)); [ "$shared" -gt 8192 ] && shared=8192; [ "$shared" -lt 128 ] && shared=128
  cache=$((mem_mb / 2))
  log "sizing PostgreSQL $ver/$name for ${mem_mb} MB of memory: shared_buffers ${shared}MB, effective_cache_size ${cache}MB (restart)"
  printf '# set once by scripts/provision.sh for this machine; edit freely\nshared_buffers = %sMB\neffective_cache_size = %sMB\n' "$shared" "$cache" >"$conf"
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" restart >>"$LOG_FILE" 2>&1 || apt_fail "pg_ctlcluster $ver $name restart"
}

pgvector_from_package() { # install postgresql-<major>-pgvector when the configured apt sources have >= 0.7
  local pkg="postgresql-$1-pgvector" cand
  cand="$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
  case "$cand" in '' | '(none)') return 1 ;; esac
  cand="${cand#*:}"
  version_ge "${cand%%-*}" "$MIN_VECTOR" || return 1
  apt_install "$pkg"
}

pgvector_build_from_trixie() {
  local major="$1" pg_config="/usr/lib/postgresql/$1/bin/pg_config"
  ensure_pkgs "postgresql-server-dev-$major" build-essential dpkg-dev
  [ -x "$pg_config" ] || die 1 "$pg_config not found after installing postgresql-server-dev-$major"

  # deb-src ONLY, in a private apt configuration: nothing binary can come from trixie.
  mkdir -p "$ENGRAM_APT_DIR/sources.list.d" "$ENGRAM_APT_DIR/lists/partial"
  cat >"$ENGRAM_APT_DIR/sources.list.d/$TRIXIE_SOURCES_NAME" <<'EOF'
# Used only by Engram's scripts/provision.sh to fetch the pgvector source package.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  local apt_src=(
    -o "Dir::Etc::sourcelist=$ENGRAM_APT_DIR/sources.list.d/$TRIXIE_SOURCES_NAME"
    -o "Dir::Etc::sourceparts=$ENGRAM_APT_DIR/none"
    -o "Dir::State::Lists=$ENGRAM_APT_DIR/lists"
    -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
  )
  log "fetching pgvector source (Debian trixie, deb-src)"
  apt_quiet "${apt_src[@]}" update || apt_fail "apt-get update (trixie deb-src)"

  local tmp src
  tmp="$(mktemp -d /tmp/engram-pgvector.XXXXXX)"
  chmod 755 "$tmp"
  chown _apt "$tmp" 2>/dev/null || true # apt downloads as the _apt user
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  (cd "$tmp" && apt_quiet "${apt_src[@]}" source pgvector) || apt_fail "apt-get source pgvector"
  src="$(find "$tmp" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
  [ -n "$src" ] || die 1 "pgvector source not found after apt-get source"

  log "building and installing ${src##*/} for PostgreSQL $major"
  # OPTFLAGS= : portable build (no -march=native), as the Debian package does.
  make -C "$src" PG_CONFIG="$pg_config" OPTFLAGS= -j"$(nproc 2>/dev/null || echo 2)" >>"$LOG_FILE" 2>&1 || apt_fail "building pgvector"
  make -C "$src" PG_CONFIG="$pg_config" OPTFLAGS= install >>"$LOG_FILE" 2>&1 || apt_fail "installing pgvector"
  rm -rf "$tmp"
  trap - EXIT
}

provision_postgres() {
  local before ver name
  if [ "$PG_STATE" = nopsql ]; then
    if tcp_open "${PG_HOST:-127.0.0.1}" "$PG_PORT"; then
      apt_install postgresql-client # a server already listens there; only the client is missing
    else
      before="$(clusters | awk '{print $1, $2}')"
      apt_install postgresql
      # clusters that appeared with this install were created by us
      while read -r ver name; do
        [ -n "$name" ] || continue
        printf '%s\n' "$before" | grep -qxF "$ver $name" || mark_cluster_ours "$ver" "$name"
      done <<<"$(clusters | awk '{print $1, $2}')"
    fi
    pg_check
  fi
  if [ "$PG_STATE" = unreachable ]; then
    pg_ensure_cluster_running
    pg_wait
  fi
  if [ "$PG_STATE" = auth ]; then
    pg_trust_local_tcp || die 2 "$(pg_problem)
  This cluster was not set up by this script, so its authentication is left alone:
  put the password in ENGRAM_PG_ADMIN_URL (postgres://postgres:PASSWORD@...) or allow it in pg_hba.conf."
    pg_check
  fi
  if [ "$PG_STATE" = novector ]; then
    log "pgvector >= $MIN_VECTOR missing on PostgreSQL $PG_VERSION (found: ${PG_VECTOR:-none})"
    pgvector_from_package "$PG_MAJOR" || pgvector_build_from_trixie "$PG_MAJOR"
    pg_check
  fi
  if [ "$PG_STATE" = nocontrib ]; then
    ensure_pkgs "postgresql-contrib" "postgresql-$PG_MAJOR"
    pg_check
  fi
  [ "$PG_STATE" = ok ] || die 1 "PostgreSQL set-up did not succeed: $(pg_problem)
  Details: $LOG_FILE"
  pg_size_memory
  pg_wait
}

# ---------------------------------------------------------------- nats ---

provision_nats() {
  local bin listen="$NATS_HOST"
  bin="$(command -v nats-server || true)"
  if [ -z "$bin" ]; then
    apt_install nats-server
    bin="$(command -v nats-server || echo /usr/sbin/nats-server)"
    nats_check
    [ "$NATS_STATE" = ok ] && return 0
  fi
  [ "$listen" = localhost ] && listen=127.0.0.1
  mkdir -p "$NATS_STORE_DIR"
  # Engram's generated configuration: the subject mappings of the partitioned RPCs (deploy/nats),
  # without authentication, as `npm start` and the tests expect (engram-auth.conf has the users).
  local config=()
  [ -f "$NATS_CONFIG_FILE" ] && config=(-c "$NATS_CONFIG_FILE")
  log "starting nats-server with JetStream on $(hostport "$NATS_HOST" "$NATS_PORT") (store $NATS_STORE_DIR${config[*]:+, config $NATS_CONFIG_FILE})"
  # The pid file ties the daemon to this port, so a nats-server on another port does not count.
  local pidfile="/run/engram-nats-$NATS_PORT.pid"
  start-stop-daemon --start --oknodo --background --make-pidfile --pidfile "$pidfile" \
    --exec "$bin" -- ${config[@]+"${config[@]}"} -a "$listen" -p "$NATS_PORT" -js -sd "$NATS_STORE_DIR" -l /var/log/engram-nats.log >>"$LOG_FILE" 2>&1 ||
    apt_fail "start-stop-daemon nats-server"
  for _ in $(seq 1 20); do
    nats_check
    [ "$NATS_STATE" = down ] || break
    kill -0 "$(cat "$pidfile" 2>/dev/null || echo 0)" 2>/dev/null || break # it exited
    sleep 0.5
  done
  if [ "$NATS_STATE" != ok ]; then
    warn "nats-server did not come up with JetStream at $(hostport "$NATS_HOST" "$NATS_PORT"); last lines of /var/log/engram-nats.log:"
    tail -n 20 /var/log/engram-nats.log >&2 2>/dev/null || true
    rm -f "$pidfile"
    exit 1
  fi
}

# ---------------------------------------------------------------- node ---

provision_node() {
  have npm || die 1 "npm not found; install Node.js (with npm) first"
  if [ -d "$REPO_ROOT/node_modules" ]; then
    log "npm ci (package-lock.json changed since the last install)"
  else
    log "npm ci (node_modules missing)"
  fi
  (cd "$REPO_ROOT" && npm ci --no-audit --no-fund --loglevel=error) ||
    die 1 "npm ci failed (see above; if package.json and package-lock.json are out of sync, run npm install)"
  mkdir -p "$REPO_ROOT/node_modules" # npm ci creates none when there are no dependencies
  stamp_hash >"$STAMP_FILE"
}

# ---------------------------------------------------------------- main ---

# Serialise runs that change things (npm start + npm test at once): re-run this
# script under `flock -o`, so the lock is held by flock itself and is NOT inherited
# by the daemons started below (postgres, nats-server), which would keep it forever.
# The re-run checks again, so it sees whatever a concurrent run already did.
acquire_lock() {
  local f="${TMPDIR:-/tmp}/engram-provision.lock"
  [ -z "${ENGRAM_PROVISION_LOCKED:-}" ] || return 0
  have flock || return 0
  (: >>"$f") 2>/dev/null || return 0
  flock -n "$f" true 2>/dev/null || log "waiting for another provision run to finish ($f)"
  ENGRAM_PROVISION_LOCKED=1 exec flock -o -w 900 -E 75 "$f" \
    "$BASH" "$SCRIPT_DIR/${BASH_SOURCE[0]##*/}" ${ORIG_ARGS[@]+"${ORIG_ARGS[@]}"}
}

ready_line() {
  log "postgres $PG_VERSION (pgvector $PG_VECTOR) at $(hostport "$PG_HOST" "$PG_PORT"), nats $NATS_VERSION (jetstream) at $(hostport "$NATS_HOST" "$NATS_PORT") — ready"
}

pg_check
nats_check
node_check
tools_check

if [ "$PG_STATE" = ok ] && [ "$NATS_STATE" = ok ] && [ "$NODE_STATE" != stale ] && [ "$TOOLS_STATE" = ok ]; then
  ready_line
  exit 0
fi

if [ "$CHECK_ONLY" = 1 ]; then
  if [ "$PG_STATE" = ok ]; then log "postgres $PG_VERSION (pgvector $PG_VECTOR) at $(hostport "$PG_HOST" "$PG_PORT") — ok"; else log "MISSING $(pg_problem)"; fi
  if [ "$NATS_STATE" = ok ]; then log "nats $NATS_VERSION (jetstream) at $(hostport "$NATS_HOST" "$NATS_PORT") — ok"; else log "MISSING $(nats_problem)"; fi
  [ "$TOOLS_STATE" = ok ] || log "MISSING $TOOLS_PROBLEM"
  [ "$NODE_STATE" = stale ] && log "MISSING node dependencies are not installed or package-lock.json changed (npm ci)"
  log "not ready (run scripts/provision.sh to set up what is missing)"
  exit 1
fi

# Decide up front whether every missing service can be set up here; if not,
# explain and stop before installing anything.
OS_ID="$(os_id)"
UID_NOW="$(id -u)"
CAN_INSTALL=1
[ "$UID_NOW" = 0 ] && [ "$OS_ID" = debian ] && have apt-get || CAN_INSTALL=0

needs_install=() # problems that a root/Debian run could fix
manual=()        # problems no automatic run can fix
if [ "$PG_STATE" != ok ]; then
  if ! is_local_host "$PG_HOST"; then
    manual+=("$(pg_problem) — it is not on this machine, so it cannot be installed here (ENGRAM_PG_ADMIN_URL=$(redact_url "$ENGRAM_PG_ADMIN_URL"))")
  else
    case "$PG_STATE" in
      old) manual+=("$(pg_problem) — upgrade it, or run PostgreSQL >= 15 on another port and set ENGRAM_PG_ADMIN_URL") ;;
      error) manual+=("$(pg_problem)") ;;
      auth)
        read -r c_ver c_name _ <<<"$(cluster_on_port)"
        if [ -n "${c_name:-}" ] && cluster_is_ours "$c_ver" "$c_name"; then
          needs_install+=("$(pg_problem)")
        else
          manual+=("$(pg_problem) — put the password in ENGRAM_PG_ADMIN_URL or allow passwordless local TCP in pg_hba.conf")
        fi
        ;;
      novector | nocontrib)
        if [ -z "$(cluster_on_port)" ]; then
          manual+=("$(pg_problem) — the server on port $PG_PORT is not a Debian cluster of this machine (a container?); use an image with pgvector, e.g. pgvector/pgvector:pg16")
        else
          needs_install+=("$(pg_problem)")
        fi
        ;;
      *) needs_install+=("$(pg_problem)") ;;
    esac
  fi
fi
if [ "$NATS_STATE" != ok ]; then
  if ! is_local_host "$NATS_HOST"; then
    manual+=("$(nats_problem) — it is not on this machine, so it cannot be installed here (NATS_URL=$(redact_url "$NATS_URL"))")
  elif [ "$NATS_STATE" = down ]; then
    needs_install+=("$(nats_problem)")
  else
    manual+=("$(nats_problem)")
  fi
fi
[ "$TOOLS_STATE" = ok ] || needs_install+=("$TOOLS_PROBLEM")

if [ "${#manual[@]}" -gt 0 ] || { [ "${#needs_install[@]}" -gt 0 ] && [ "$CAN_INSTALL" = 0 ]; }; then
  {
    echo "provision: Engram's backing services are not ready:"
    for p in ${manual[@]+"${manual[@]}"} ${needs_install[@]+"${needs_install[@]}"}; do echo "  - $p"; done
    if [ "${#needs_install[@]}" -gt 0 ] && [ "$CAN_INSTALL" = 0 ]; then
      echo "Automatic installation needs root on Debian (here: uid $UID_NOW, os '${OS_ID:-unknown}' from $OS_RELEASE_FILE), so nothing was installed."
    else
      echo "Nothing was installed."
    fi
    cat <<EOF
To fix it, either start them with Docker, from the repo root:
    ENGRAM_NATS_CONF=engram.conf docker compose up -d postgres nats
or install them by hand:
    PostgreSQL >= 15 with pgvector >= $MIN_VECTOR (and the contrib extensions btree_gin, pg_trgm)
    nats-server with JetStream enabled (nats-server -js)
and tell Engram where they are:
    ENGRAM_PG_ADMIN_URL  superuser URL, now $(redact_url "$ENGRAM_PG_ADMIN_URL")
    NATS_URL             now $(redact_url "$NATS_URL")
Then run scripts/provision.sh again.
EOF
  } >&2
  exit 2
fi

acquire_lock # re-runs this script from the top while holding the lock
if [ "${#needs_install[@]}" -gt 0 ]; then
  touch "$LOG_FILE" 2>/dev/null || LOG_FILE="$(mktemp /tmp/engram-provision.XXXXXX.log)"
  [ "$PG_STATE" = ok ] || provision_postgres
  [ "$NATS_STATE" = ok ] || provision_nats
  [ "$TOOLS_STATE" = ok ] || ensure_pkgs procps curl chromium
fi
node_check
[ "$NODE_STATE" = stale ] && provision_node
ready_line
