package report

import (
	"errors"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"
)

// ---- SVG -------------------------------------------------------------------------------------

var (
	htmlSVGOpenRe = regexp.MustCompile(`(?s)^<svg\b[^>]*>`)
	htmlSVGAttrRe = func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?s)\s` + name + `\s*=\s*("([^"]*)"|'([^']*)')`)
	}
	htmlSVGWidthRe   = htmlSVGAttrRe("width")
	htmlSVGHeightRe  = htmlSVGAttrRe("height")
	htmlSVGViewBoxRe = regexp.MustCompile(`(?i)\sviewBox\s*=`)
	htmlSVGLengthRe  = regexp.MustCompile(`^\s*([0-9]*\.?[0-9]+)\s*(px|pt)?\s*$`)
	// Attributes that can load something: href, xlink:href, src.
	htmlSVGRefRe = regexp.MustCompile(`(?is)\s(?:xlink:)?(?:href|src)\s*=\s*("([^"]*)"|'([^']*)')`)
	htmlSVGURLRe = regexp.MustCompile(`(?is)url\(\s*["']?\s*([^"')\s]*)`)
)

// htmlInlineSVG turns an SVG document into an element to inline in the page: what precedes the
// <svg> element (XML prolog, comments, doctype) and follows it is removed, and a viewBox is
// added from width and height when it has none, so that CSS can scale it. It refuses an SVG
// with a script or a reference to anything but itself or a data: URL.
func htmlInlineSVG(s string) (template.HTML, error) {
	start := strings.Index(s, "<svg")
	end := strings.LastIndex(s, "</svg>")
	if start < 0 || end < start {
		return "", errors.New("no <svg> element")
	}
	s = s[start : end+len("</svg>")]
	low := strings.ToLower(s)
	if strings.Contains(low, "<script") || strings.Contains(low, "<foreignobject") {
		return "", errors.New("the SVG holds a script or foreign object")
	}
	if strings.Contains(low, "@import") {
		return "", errors.New("the SVG imports a stylesheet")
	}
	for _, m := range htmlSVGRefRe.FindAllStringSubmatch(s, -1) {
		if ref := strings.TrimSpace(m[2] + m[3]); !htmlSelfContained(ref) {
			return "", fmt.Errorf("the SVG refers to %q outside the page", ref)
		}
	}
	for _, m := range htmlSVGURLRe.FindAllStringSubmatch(s, -1) {
		if !htmlSelfContained(m[1]) {
			return "", fmt.Errorf("the SVG refers to url(%s) outside the page", m[1])
		}
	}
	open := htmlSVGOpenRe.FindString(s)
	if open != "" && !htmlSVGViewBoxRe.MatchString(open) {
		w, wok := htmlSVGLength(htmlSVGWidthRe.FindStringSubmatch(open))
		h, hok := htmlSVGLength(htmlSVGHeightRe.FindStringSubmatch(open))
		if wok && hok {
			vb := fmt.Sprintf(` viewBox="0 0 %s %s"`, strconv.FormatFloat(w, 'f', -1, 64), strconv.FormatFloat(h, 'f', -1, 64))
			s = "<svg" + vb + s[len("<svg"):]
		}
	}
	return template.HTML(s), nil
}

func htmlSVGLength(m []string) (float64, bool) {
	if m == nil {
		return 0, false
	}
	l := htmlSVGLengthRe.FindStringSubmatch(m[2] + m[3])
	if l == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(l[1], 64)
	return v, err == nil && v > 0
}

// htmlSelfContained reports whether a reference stays inside the page: a fragment or a data: URL.
func htmlSelfContained(ref string) bool {
	return ref == "" || strings.HasPrefix(ref, "#") || strings.HasPrefix(strings.ToLower(ref), "data:")
}
