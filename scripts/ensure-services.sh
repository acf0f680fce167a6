#!/usr/bin/env bash
# Makes sure what the test suite talks to is there: Debian's Chromium for the browser tests,
# PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379. Where they already answer (as on the
# development machines) it installs and starts nothing.
set -euo pipefail

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    echo "ensure-services: apt-get update"
    apt-get update -qq
    apt_updated=1
  fi
  echo "ensure-services: installing $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Browser tests drive Debian's Chromium; Playwright never downloads a browser here.
if ! command -v chromium >/dev/null 2>&1; then
  as_root true && apt_install chromium
fi

# The event printables: WeasyPrint renders with Pango; tests turn PDFs into text and PNG with
# poppler-utils.
# Campus sign-in: the tests' SAML identity provider (pysaml2) signs through the xmlsec1 command.
for package in libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core poppler-utils xmlsec1; do
  if ! dpkg -s "$package" >/dev/null 2>&1; then
    as_root true && apt_install "$package"
  fi
done

if ! answers 5432; then
  command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql
  version=$(ls /etc/postgresql | sort -V | tail -1)
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  # A fresh Debian cluster wants a password on TCP; the disposable test machine trusts loopback.
  if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do answers 5432 && break; sleep 1; done
  answers 5432 || { echo "ensure-services: PostgreSQL did not start" >&2; exit 1; }
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
fi

if ! answers 6379; then
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do answers 6379 && break; sleep 1; done
  answers 6379 || { echo "ensure-services: Redis did not start" >&2; exit 1; }
fi
echo "ensure-services: chromium, PostgreSQL and Redis are ready"
