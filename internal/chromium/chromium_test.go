package chromium

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireChromium applies the package's test policy: skip without Chromium, fail in CI.
func requireChromium(t *testing.T) {
	t.Helper()
	if _, err := Available(); err != nil {
		if Required() {
			t.Fatalf("CI is set but Chromium is not available: %v", err)
		}
		t.Skipf("chromium not available: %v", err)
	}
}

// page is a white page with a red block at the top left and a blue one below it.
const page = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>t</title>
<style>
html, body { margin: 0; padding: 0; background: #ffffff; }
#red { position: absolute; left: 0; top: 0; width: 100px; height: 50px; background: #ff0000; }
#blue { position: absolute; left: 0; top: 100px; width: 100px; height: 50px; background: #0000ff; }
</style></head>
<body><div id="red"></div><div id="blue"></div></body></html>
`

func writePage(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	require.NoError(t, os.WriteFile(path, []byte(page), 0o644))
	return path
}

func near(c color.Color, r, g, b uint8) bool {
	cr, cg, cb, _ := c.RGBA()
	d := func(x uint32, y uint8) bool {
		v := int(x>>8) - int(y)
		return v > -24 && v < 24
	}
	return d(cr, r) && d(cg, g) && d(cb, b)
}

func TestScreenshot(t *testing.T) {
	requireChromium(t)
	html := writePage(t)
	out := filepath.Join(t.TempDir(), "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	require.NoError(t, Screenshot(ctx, html, out, 320, 240))

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 320, 240), img.Bounds(), "the PNG has the requested size")

	assert.True(t, near(img.At(50, 25), 0xff, 0, 0), "red block at (50, 25), got %v", img.At(50, 25))
	assert.True(t, near(img.At(50, 125), 0, 0, 0xff), "blue block at (50, 125), got %v", img.At(50, 125))
	assert.True(t, near(img.At(250, 200), 0xff, 0xff, 0xff), "white background at (250, 200), got %v", img.At(250, 200))
}

func TestScreenshotTallWindow(t *testing.T) {
	requireChromium(t)
	html := writePage(t)
	out := filepath.Join(t.TempDir(), "tall.png")
	require.NoError(t, Screenshot(context.Background(), html, out, 200, 3000))
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	require.NoError(t, err)
	assert.Equal(t, 200, cfg.Width)
	assert.Equal(t, 3000, cfg.Height)
}

func TestPrintToPDF(t *testing.T) {
	requireChromium(t)
	html := writePage(t)
	out := filepath.Join(t.TempDir(), "page.pdf")
	require.NoError(t, PrintToPDF(context.Background(), html, out))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte("%PDF-")), "a PDF, starts with %q", b[:min(len(b), 8)])
}

func TestErrors(t *testing.T) {
	// These fail before Chromium runs, or without it.
	dir := t.TempDir()
	err := Screenshot(context.Background(), filepath.Join(dir, "page.html"), filepath.Join(dir, "x.png"), 0, 10)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "positive")

	if _, ferr := Find(); ferr != nil {
		t.Skip("no chromium for the missing-file case")
	}
	err = Screenshot(context.Background(), filepath.Join(dir, "missing.html"), filepath.Join(dir, "x.png"), 100, 100)
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestTimeout(t *testing.T) {
	requireChromium(t)
	html := writePage(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	err := Screenshot(ctx, html, filepath.Join(t.TempDir(), "x.png"), 100, 100)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// fakeChromium installs a shell script as the Chromium binary for the test.
func fakeChromium(t *testing.T, script string) {
	t.Helper()
	fake := filepath.Join(t.TempDir(), "fake-chromium")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\n"+script), 0o755))
	t.Setenv(EnvBinary, fake)
}

func TestFakeBrowser(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	html := writePage(t)
	out := filepath.Join(t.TempDir(), "x.png")

	fakeChromium(t, "echo 'something broke' >&2\nexit 3\n")
	err := Screenshot(context.Background(), html, out, 100, 100)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "something broke", "the error carries stderr's tail")
	assert.Contains(t, err.Error(), "exit status 3")

	fakeChromium(t, "exit 0\n")
	err = Screenshot(context.Background(), html, out, 100, 100)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "wrote no")

	// A stale output file from an earlier run does not count.
	require.NoError(t, os.WriteFile(out, []byte("old"), 0o644))
	err = Screenshot(context.Background(), html, out, 100, 100)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "wrote no")

	// The browser and a child that holds its stderr are killed at the deadline.
	fakeChromium(t, "sleep 60 &\nsleep 60\n")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = Screenshot(ctx, html, out, 100, 100)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 10*time.Second)
}

func TestFindEnv(t *testing.T) {
	t.Setenv(EnvBinary, filepath.Join(t.TempDir(), "no-such-chromium"))
	_, err := Find()
	require.Error(t, err)
	assert.Contains(t, err.Error(), EnvBinary)

	// A name on PATH works too: point it at a fake executable.
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-chromium")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'Chromium 1.0'\n"), 0o755))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(EnvBinary, "fake-chromium")
	path, err := Find()
	require.NoError(t, err)
	assert.Equal(t, fake, path)
}

func TestFindPath(t *testing.T) {
	t.Setenv(EnvBinary, "")
	dir := t.TempDir()
	fake := filepath.Join(dir, "google-chrome")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	t.Setenv("PATH", dir)
	path, err := Find()
	require.NoError(t, err)
	assert.Equal(t, fake, path)

	t.Setenv("PATH", t.TempDir())
	_, err = Find()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "chromium-browser")
}

func TestTail(t *testing.T) {
	out := "[1:2:ERROR:dbus/bus.cc:405] Failed to connect to the bus\nreal problem\n"
	got := tail([]byte(out))
	assert.Contains(t, got, "real problem")
	assert.NotContains(t, got, "dbus")
	assert.Equal(t, "", tail([]byte("[1:2:ERROR:dbus/bus.cc:405] x\n")))
	var many strings.Builder
	for i := range 40 {
		many.WriteString(strings.Repeat("x", i%3+1) + "\n")
	}
	assert.Equal(t, stderrTailLines, strings.Count(tail([]byte(many.String())), "\n\t"))
}
