# A fresh Debian root for the checks that prove what a new machine does
# (scripts/fresh-machine-check, scripts/wheel-check); sourced, not run.
# The caller sets `root` (the folder) and defines `say` and `fail`; needs
# root (debootstrap, chroot, mounts).
#
#   debian_root_make SUITE MIRROR LOG [PACKAGES]   debootstrap minbase (+ PACKAGES, comma-separated),
#                                                  then what an installed machine has, and a user
#   debian_root_as_user COMMAND                     runs COMMAND as that user, in its home, with a
#                                                  login-like environment and nothing of this machine's
#   debian_root_remove                              unmounts and removes the root

debian_root_user=newuser
debian_root_home=/home/newuser

# Note [Unmount before removing]
# The root gets /proc, /dev/pts, /dev/shm and /sys mounts. Removing a tree with a live mount in it would
# reach through the mount, so every removal first unmounts and then refuses
# to go on while anything is still mounted below the root.
debian_root_mounted_below() { awk -v r="$1/" 'index($2 "/", r) == 1 { print $2 }' /proc/self/mounts; }
debian_root_unmount() {
  [[ -d $root ]] || return 0
  local m
  for m in $(debian_root_mounted_below "$root" | sort -r); do umount "$m" 2>/dev/null || umount -l "$m" || true; done
  [[ -z $(debian_root_mounted_below "$root") ]]
}
debian_root_remove() {
  [[ -d $root ]] || return 0
  debian_root_unmount || fail "cannot unmount everything below $root; not removing it"
  rm -rf --one-file-system "$root"
}

debian_root_make() {
  local suite=$1 mirror=$2 log=$3 packages=${4:-}
  if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  debootstrap --variant=minbase --include="sudo${packages:+,$packages}" "$suite" "$root" "$mirror" >"$log" 2>&1 ||
    { tail -n 20 "$log" >&2; fail "debootstrap of $suite failed (log: $log)"; }
  # What an installed machine has and debootstrap leaves out: /proc, a pty
  # instance of its own (apt and dpkg open one), name resolution and its own
  # host name in /etc/hosts (sudo looks it up).
  mount -t proc proc "$root/proc"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
  mkdir -p "$root/dev/shm" && mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"  # Chromium's shared memory
  # Open MPI's hwloc reads the machine's topology (cores, NUMA) from /sys.
  mkdir -p "$root/sys" && mount -t sysfs -o ro sysfs "$root/sys"
  ln -sf pts/ptmx "$root/dev/ptmx"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  # The network this machine is on, not its software: where TLS goes through
  # a site proxy, the site's CA anchors (and pip's setting that names the
  # bundle) come along, as they would on any machine of that site.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null && [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
    mkdir -p "$root/usr/local/share/ca-certificates" "$root/etc/ssl/certs"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
    [[ -f /etc/pip.conf ]] && cp /etc/pip.conf "$root/etc/pip.conf"
  fi
  printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n' "$(uname -n)" >"$root/etc/hosts"
  chroot "$root" useradd --create-home --shell /bin/bash "$debian_root_user"
  echo "$debian_root_user ALL=(ALL) NOPASSWD: ALL" >"$root/etc/sudoers.d/$debian_root_user"
  chmod 0440 "$root/etc/sudoers.d/$debian_root_user"
}

debian_root_as_user() {
  chroot --userspec="$debian_root_user:$debian_root_user" "$root" /usr/bin/env -i HOME="$debian_root_home" \
    USER="$debian_root_user" LOGNAME="$debian_root_user" SHELL=/bin/bash LANG=C.UTF-8 \
    PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin /bin/bash -c "cd && $1"
}
