#!/usr/bin/env bash
# The uWS engine where it loads: a Debian 13 root (glibc 2.41; this machine's Debian 12 has 2.36 and uWS's
# binaries need 2.38), made with debootstrap from Debian's packages and kept in a cache, with the repository and the
# given Node bind-mounted in. Inside it, with REQUIRE_UWS=1: the gateway's engine suites (uWS must load, none
# skipped) and the start-and-chat smoke test, whose server must report engine uws. Needs root (chroot, mounts).
#   usage: .ci/uws-root.sh <node bin folder> [command...]
# With a command, runs that instead (in the repository, as root, e.g. `npm run bench -- --engines=uws`): the uWS
# engine's benchmark figures on a machine whose own C library is too old for it.
set -euo pipefail
node_bin=${1:?usage: uws-root.sh <node bin folder> [command...]}
shift
command=("$@")
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${EPHEMERA_UWS_ROOT:-/var/cache/ephemera/trixie-root}
if [[ $(id -u) != 0 ]]; then echo "uws-root.sh needs root (debootstrap, chroot, mounts)" >&2; exit 1; fi

if [[ ! -f "$root/.complete" ]]; then
  command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  rm -rf "$root" && mkdir -p "$root"
  debootstrap --variant=minbase trixie "$root" http://deb.debian.org/debian >/dev/null
  touch "$root/.complete"
fi
# PostgreSQL (embedded mode) listens on "localhost"
cp /etc/hosts "$root/etc/hosts"
rm -rf "$root/opt/node" "$root/opt/npm" && mkdir -p "$root/opt/node" "$root/opt/npm"
cp -r "$node_bin/../bin" "$root/opt/node/"
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
cp -r "$npm_dir" "$root/opt/npm/npm"
ln -sf /opt/npm/npm/bin/npm-cli.js "$root/opt/node/bin/npm" && ln -sf /opt/npm/npm/bin/npx-cli.js "$root/opt/node/bin/npx"

mounts=()
cleanup() { for ((i=${#mounts[@]}-1; i>=0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
mount -t proc proc "$root/proc" && mounts+=("$root/proc")
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && mounts+=("$root/dev")
mount -t tmpfs tmpfs "$root/tmp" && mounts+=("$root/tmp")
# last: the repository may itself be under /tmp (a CI clone), which the tmpfs above would hide
mkdir -p "$root$repo" && mount --bind "$repo" "$root$repo" && mounts+=("$root$repo")

if ((${#command[@]})); then
  chroot "$root" /usr/bin/env -i PATH=/opt/node/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /bin/sh -ec 'cd "$0" && exec "$@"' "$repo" "${command[@]}"
  exit
fi
chroot "$root" /usr/bin/env -i PATH=/opt/node/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root REQUIRE_UWS=1 /bin/sh -ec "
  cd '$repo'
  echo \"uWS root: \$(ldd --version | head -1), Node \$(node --version)\"
  npx vitest run --config .ci/vitest.uws.config.ts
  out=\$(node --import tsx test/smoke/start-and-chat.ts)
  echo \"\$out\"
  case \"\$out\" in *'gateway engine uws'*) ;; *) echo 'the server did not run the uws engine' >&2; exit 1;; esac
"
