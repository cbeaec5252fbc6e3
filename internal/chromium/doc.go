// Package chromium finds and drives headless Chromium, to render gctune's HTML report in tests:
// a PNG screenshot to look at or check pixels of, a PDF to check printing.
//
// Find locates the binary: $CHROMIUM_BIN when set (a path or a name on PATH), else the first
// of chromium, chromium-browser, google-chrome and google-chrome-stable on PATH. Available also
// checks that the binary runs (chromium --version).
//
// Screenshot and PrintToPDF run one headless Chromium per call with a fresh temporary profile
// (--user-data-dir, removed afterwards) and flags that keep it off the network and quiet
// (--disable-background-networking, --disable-component-update, --disable-sync,
// --disable-quic, --no-first-run), --no-sandbox (so it runs as root in containers) and
// --disable-dev-shm-usage (containers' /dev/shm is often too small). Each call is bounded by
// its context, or by DefaultTimeout when the context has no deadline; on failure the error
// carries the tail of Chromium's standard error, without the D-Bus noise it prints on machines
// without a session bus.
//
// Headless Chromium's --screenshot captures the viewport only, not the whole page: to capture a
// long page, pass a window height at least the page's height (the rest of the image is the
// page's background).
//
// # Policy for tests
//
// A test that needs Chromium calls Available. When Chromium is missing it skips the test with
// t.Skip, unless the environment variable CI is non-empty (Required reports it): CI installs
// Chromium (.ci/run installs Debian's chromium package when /usr/bin/chromium is missing), so
// there a missing Chromium is a broken CI image and the test fails instead of silently
// skipping:
//
//	path, err := chromium.Available()
//	if err != nil {
//		if chromium.Required() {
//			t.Fatalf("chromium: %v", err)
//		}
//		t.Skipf("chromium not available: %v", err)
//	}
//
// On Debian 12: apt-get install -y chromium (the binary is /usr/bin/chromium).
package chromium
