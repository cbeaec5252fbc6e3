package report

import "bytes"

// Page is a report drawn and rendered: the HTML page, whole, and the figures it holds.
type Page struct {
	HTML    bytes.Buffer
	Figures []Figure
	// PNGs are the PNG files written (Publish with a folder).
	PNGs []string
}

// Publish draws r's figures (Figures), renders the page whole in memory (Render), then, when
// pngDir is not "", writes each figure's PNG there (WritePNGs). The caller writes the page
// last, so that a failure leaves no page behind that claims figures it does not have.
func Publish(r *Report, pngDir string) (*Page, error) {
	figs, err := Figures(r)
	if err != nil {
		return nil, err
	}
	p := &Page{Figures: figs}
	if err := Render(&p.HTML, r, figs); err != nil {
		return nil, err
	}
	if pngDir != "" {
		if p.PNGs, err = WritePNGs(figs, pngDir); err != nil {
			return nil, err
		}
	}
	return p, nil
}
