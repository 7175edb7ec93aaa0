#!/usr/bin/env bash
# Installs the Debian packages Masa's demo and tests use, when run as root.
# Elsewhere it prints what is missing; the tests needing them skip with a reason.
set -u
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
for p in gnubg mosquitto mosquitto-clients espeak-ng gnome-cards-data librsvg2-bin kdegames-card-data-kf5; do
  have_pkg "$p" || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-packages: no apt-get here; missing: ${need[*]} (tests needing them will be skipped)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "system-packages: not root; missing: ${need[*]}"
  echo "  install them with: sudo apt-get install ${need[*]}"
  exit 0
fi
echo "system-packages: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || echo "system-packages: apt-get update failed"
# One by one, so that one package missing from a release does not stop the rest.
for p in "${need[@]}"; do
  apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 \
    || echo "system-packages: could not install $p (tests needing it will be skipped)"
done
# The packages start their services; Masa starts its own broker when it needs one.
command -v systemctl >/dev/null 2>&1 && systemctl stop mosquitto >/dev/null 2>&1
exit 0
