#!/usr/bin/env bash
# Installs everything PCP needs on a fresh Debian machine; cheap when already done.
# Never installs Debian's nodejs/npm (the machine's Node 20 is used).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

# command -> Debian package
declare -A APT=( [chromium]=chromium [tcpdump]=tcpdump [tshark]=tshark [dot]=graphviz [rsvg-convert]=librsvg2-bin [gcc]=build-essential [ip]=iproute2 [tc]=iproute2 [openssl]=openssl [setpriv]=util-linux )
missing=()
for cmd in "${!APT[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${APT[$cmd]}")
done
# Real documentation sites for accuracy:emulator's pages (emulator/accuracy/pages.ts): Sphinx HTML with
# CSS, scripts, images and search; none depends on nodejs/npm.
for pkg in python3-doc python-flask-doc python-attr-doc python-requests-doc; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Node dependencies (workspaces). Reinstall when the lock file changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# Python package for server delays (dpkt), with its test tools (and matplotlib for the accuracy plots).
PY=${PYTHON:-python3}
# The editable install must point at *this* checkout (another clone may have installed itself).
here="$(pwd)/server-delays/src/server_delays"
installed="$("$PY" -c "import os, server_delays, dpkt, pytest, ruff, matplotlib; print(os.path.dirname(server_delays.__file__))" 2>/dev/null || true)"
if [ "$installed" != "$here" ]; then
  echo "setup: pip install server-delays" >&2
  "$PY" -m pip install -q --disable-pip-version-check -e "server-delays[dev]"
fi

# Python package for corpora (corpus/python: the Dask drivers of pcp corpus build/pcp sweep --scheduler; Parquet tables,
# statistics and figures of pcp corpus stats and publish), editable, this checkout's.
here_corpus="$(pwd)/corpus/python/pcp_corpus"
installed_corpus="$("$PY" -c "import os, pcp_corpus, dask.distributed, fsspec, pyarrow, duckdb, pandas, matplotlib, tabulate, frictionless, mlcroissant, s3fs, moto; print(os.path.dirname(pcp_corpus.__file__))" 2>/dev/null || true)"
if [ "$installed_corpus" != "$here_corpus" ]; then
  echo "setup: pip install corpus/python" >&2
  "$PY" -m pip install -q --disable-pip-version-check -e "corpus/python[dev]"
fi
