# Sourced by scripts/browser-test.sh and scripts/web-test.sh: Debian's
# chromium (installed when missing) and playwright-core, pinned by
# tests/browser/package-lock.json and installed under the target dir (again
# only when the lock changes). No browser is ever downloaded.
# Sets NODE_DIR, where node_modules/playwright-core is.
browser_setup() {
  if [ ! -x /usr/bin/chromium ]; then
    echo "== installing Debian's chromium"
    # Another install on this machine may hold dpkg's lock: wait for it.
    apt-get -o DPkg::Lock::Timeout=600 update -qq \
      && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null
  fi
  NODE_DIR=$(realpath -m "${CARGO_TARGET_DIR:-target}/browser-node")
  if ! cmp -s tests/browser/package-lock.json "$NODE_DIR/package-lock.json" \
     || [ ! -d "$NODE_DIR/node_modules/playwright-core" ]; then
    echo "== installing playwright-core (tests/browser/package-lock.json)"
    rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
    cp tests/browser/package.json tests/browser/package-lock.json "$NODE_DIR/"
    # playwright-core downloads no browser; make sure nothing tries.
    (cd "$NODE_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
  fi
}
