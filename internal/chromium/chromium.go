package chromium

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// EnvBinary names the environment variable that, when set, gives the Chromium binary to use.
const EnvBinary = "CHROMIUM_BIN"

// DefaultTimeout bounds one Chromium run when the context has no deadline.
const DefaultTimeout = 2 * time.Minute

// candidates are the binary names Find looks for on PATH, in order.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// stderrTailLines is how many lines of Chromium's standard error an error carries.
const stderrTailLines = 15

// Find returns the path of a Chromium binary: $CHROMIUM_BIN if set, else the first of
// chromium, chromium-browser, google-chrome, google-chrome-stable on PATH; an error if none.
// A CHROMIUM_BIN that names no executable is an error (Find does not fall back to PATH).
func Find() (string, error) {
	if env := os.Getenv(EnvBinary); env != "" {
		path, err := exec.LookPath(env)
		if err != nil {
			return "", fmt.Errorf("chromium: %s=%q: %w", EnvBinary, env, err)
		}
		return path, nil
	}
	for _, name := range candidates {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("chromium: none of %s on PATH (set %s to the binary, or on Debian: apt-get install chromium)",
		strings.Join(candidates, ", "), EnvBinary)
}

// Available returns the path of a Chromium binary that runs: Find's, checked by running it with
// --version (for a minute at most). Tests use it to decide whether to skip; see the package
// documentation for the policy.
func Available() (path string, err error) {
	path, err = Find()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("chromium: %s --version: %w%s", path, err, tail(out.Bytes()))
	}
	return path, nil
}

// Required reports whether tests must fail rather than skip when Chromium is missing: when the
// environment variable CI is non-empty.
func Required() bool { return os.Getenv("CI") != "" }

// Screenshot opens the file at htmlPath (file:// URL) in headless Chromium and writes a PNG
// screenshot of widthPx × heightPx to pngPath. The screenshot is the viewport: a page longer
// than heightPx is cut (pass a taller window). It uses a fresh temporary --user-data-dir
// (removed after), the flags --headless --no-sandbox --disable-gpu --disable-quic
// --no-first-run --disable-background-networking --disable-component-update --disable-sync
// --hide-scrollbars --disable-dev-shm-usage --force-device-scale-factor=1
// --screenshot=<png> --window-size=W,H, a timeout from ctx (DefaultTimeout without a deadline),
// and returns an error with Chromium's stderr tail when it fails or writes no file.
func Screenshot(ctx context.Context, htmlPath, pngPath string, widthPx, heightPx int) error {
	if widthPx <= 0 || heightPx <= 0 {
		return fmt.Errorf("chromium: screenshot size %d×%d: want positive width and height", widthPx, heightPx)
	}
	return run(ctx, htmlPath, pngPath,
		"--hide-scrollbars",
		"--force-device-scale-factor=1",
		"--window-size="+strconv.Itoa(widthPx)+","+strconv.Itoa(heightPx),
		"--screenshot="+outFlag(pngPath))
}

// PrintToPDF opens the file at htmlPath in headless Chromium and prints it to pdfPath with
// --print-to-pdf=<pdf> --no-pdf-header-footer (the page's print stylesheet applies), with the
// same fresh profile, flags, timeout and errors as Screenshot.
func PrintToPDF(ctx context.Context, htmlPath, pdfPath string) error {
	return run(ctx, htmlPath, pdfPath,
		"--no-pdf-header-footer",
		"--print-to-pdf="+outFlag(pdfPath))
}

// outFlag is the absolute form of an output path (Chromium resolves relative ones against its
// own working directory).
func outFlag(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// run runs headless Chromium on htmlPath with the common flags and extra, and checks that it
// wrote a non-empty file at outPath.
func run(ctx context.Context, htmlPath, outPath string, extra ...string) error {
	bin, err := Find()
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(htmlPath)
	if err != nil {
		return fmt.Errorf("chromium: %s: %w", htmlPath, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return fmt.Errorf("chromium: %w", err)
	} else if st.IsDir() {
		return fmt.Errorf("chromium: %s is a directory, not an HTML file", abs)
	}
	outAbs := outFlag(outPath)
	// A stale file from an earlier run must not pass for this run's output.
	if err := os.Remove(outAbs); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("chromium: %w", err)
	}
	profile, err := os.MkdirTemp("", "gctune-chromium-")
	if err != nil {
		return fmt.Errorf("chromium: profile directory: %w", err)
	}
	defer removeProfile(profile)

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	args := []string{
		"--headless",
		"--no-sandbox",
		"--disable-gpu",
		"--disable-quic",
		"--no-first-run",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-dev-shm-usage",
		"--user-data-dir=" + profile,
	}
	args = append(args, extra...)
	args = append(args, fileURL(abs))
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	cmd.Dir = profile
	setProcessGroup(cmd)
	// Children that outlive a killed browser must not keep Wait from returning.
	cmd.WaitDelay = 5 * time.Second
	runErr := cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("chromium: %s: %w%s", abs, ctxErr, tail(stderr.Bytes()))
	}
	if runErr != nil {
		return fmt.Errorf("chromium: %s: %w%s", abs, runErr, tail(stderr.Bytes()))
	}
	st, err := os.Stat(outAbs)
	switch {
	case err != nil:
		return fmt.Errorf("chromium: %s: wrote no %s%s", abs, outAbs, tail(stderr.Bytes()))
	case st.Size() == 0:
		return fmt.Errorf("chromium: %s: wrote an empty %s%s", abs, outAbs, tail(stderr.Bytes()))
	}
	return nil
}

// fileURL is the file:// URL of an absolute path.
func fileURL(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// removeProfile removes the temporary profile, retrying briefly: Chromium's helper processes
// may still be writing to it for a moment after the browser exits.
func removeProfile(dir string) {
	for range 5 {
		if err := os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tail returns the last lines of Chromium's output, prefixed for an error message, without the
// D-Bus complaints it prints when no session bus is running; "" when nothing is left.
func tail(out []byte) string {
	var keep []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.Contains(line, ":ERROR:dbus/") {
			continue
		}
		keep = append(keep, line)
	}
	if len(keep) == 0 {
		return ""
	}
	if len(keep) > stderrTailLines {
		keep = keep[len(keep)-stderrTailLines:]
	}
	return "\nchromium's stderr (tail):\n\t" + strings.Join(keep, "\n\t")
}
