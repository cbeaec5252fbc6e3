// Command figshots screenshots every figure of a gctune HTML report in headless Chromium, one
// PNG per figure, to look at them as a reader's browser draws them:
//
//	go run ./scripts/figshots REPORT.html OUTDIR
//
// For each <figure id="NAME"> of the page it writes OUTDIR/NAME.html (the page's own style, that
// figure alone in the page's main column) and OUTDIR/NAME.png, the screenshot at --width pixels,
// cut below the figure's caption. scripts/screenshot_figures.sh runs it on a fresh study.
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gctune/gctune/internal/chromium"
)

var (
	styleRe  = regexp.MustCompile(`(?s)<style>.*?</style>`)
	figureRe = regexp.MustCompile(`(?s)<figure id="([^"]+)">.*?</figure>`)
)

func main() {
	width := flag.Int("width", 1200, "window width in pixels")
	height := flag.Int("height", 2400, "window height in pixels before the cut (at least the tallest figure)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: figshots [--width PX] [--height PX] REPORT.html OUTDIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	n, err := run(context.Background(), flag.Arg(0), flag.Arg(1), *width, *height)
	if err != nil {
		fmt.Fprintln(os.Stderr, "figshots:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "figshots: %d figures in %s\n", n, flag.Arg(1))
}

// run writes one page and one screenshot per figure of the report at page into dir and returns
// how many it wrote.
func run(ctx context.Context, page, dir string, width, height int) (int, error) {
	b, err := os.ReadFile(page)
	if err != nil {
		return 0, err
	}
	html := string(b)
	style := styleRe.FindString(html)
	if style == "" {
		return 0, fmt.Errorf("%s: no <style> element: not a gctune report", page)
	}
	figs := figureRe.FindAllStringSubmatch(html, -1)
	if len(figs) == 0 {
		return 0, fmt.Errorf("%s: no <figure id=...> element", page)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	for _, f := range figs {
		name, body := f[1], f[0]
		if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
			return 0, fmt.Errorf("%s: figure id %q is not a plain file name", page, name)
		}
		one := filepath.Join(dir, name+".html")
		doc := "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" + style +
			"</head><body><main class=\"page\">" + body + "</main></body></html>\n"
		if err := os.WriteFile(one, []byte(doc), 0o644); err != nil {
			return 0, err
		}
		shot := filepath.Join(dir, name+".png")
		if err := chromium.Screenshot(ctx, one, shot, width, height); err != nil {
			return 0, err
		}
		if err := cut(shot); err != nil {
			return 0, fmt.Errorf("%s: %w", shot, err)
		}
	}
	return len(figs), nil
}

// cut crops the screenshot at path below its last row that is not the page's background (the
// colour of its bottom-left pixel), keeping a margin.
func cut(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return err
	}
	bounds := img.Bounds()
	bg := img.At(bounds.Min.X, bounds.Max.Y-1)
	br, bgc, bb, _ := bg.RGBA()
	last := bounds.Min.Y
	for y := bounds.Max.Y - 1; y >= bounds.Min.Y && last == bounds.Min.Y; y-- {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r != br || g != bgc || b != bb {
				last = y
				break
			}
		}
	}
	if last >= bounds.Max.Y-2 {
		return fmt.Errorf("the figure reaches the window's bottom (%d px): pass a larger --height", bounds.Dy())
	}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return nil
	}
	cropped := sub.SubImage(image.Rect(bounds.Min.X, bounds.Min.Y, bounds.Max.X, min(bounds.Max.Y, last+16)))
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(out, cropped); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
