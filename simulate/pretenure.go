package simulate

import (
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile"
)

// Pretenured says which allocation sites the given run allocated straight into old space
// (simulate --pretenure, docs/sites.md): a change to the application's code, not a GC
// parameter.
type Pretenured struct {
	// Sites are the sites matched, as the profile names them.
	Sites []string `json:"sites"`
	// Records, Objects and Bytes are what they allocate.
	Records int    `json:"records"`
	Objects uint64 `json:"objects"`
	Bytes   uint64 `json:"bytes"`
	// Change is the change to the Pharo code the run stands for.
	Change string `json:"change"`
}

// pretenureChange is the code change a pretenured site stands for.
const pretenureChange = "allocate with basicNewTenured / basicNewTenured: / newTenured (primitives 596, 597) instead of basicNew / basicNew: / new at these sites"

// Pretenure returns the view of p with the sites the patterns name pretenured
// (heapsim.Pretenured) and what it pretenures. Each pattern is a site ("Foo>>#bar @23") or a
// method ("Foo>>#bar", "Foo>>bar"), which names all of its sites; a pattern naming none, or a
// profile naming no sites, is the user's error (ErrInput).
func Pretenure(p *profile.Profile, patterns []string) (*profile.Profile, *Pretenured, error) {
	if !p.HasSites() {
		return nil, nil, &inputError{"--pretenure: the profile " + termtext.Quote(p.Meta.Source) + " names no allocation sites (a FiLiP export since 2024-04, or a spec with site:)"}
	}
	var idx []uint32
	seen := make(map[uint32]bool)
	for _, pat := range patterns {
		m := p.MatchSites(pat)
		if len(m) == 0 {
			return nil, nil, &inputError{"--pretenure " + termtext.Quote(pat) + ": no allocation site of the profile matches (gctune lifetimes lists them)"}
		}
		for _, s := range m {
			if !seen[s] {
				seen[s] = true
				idx = append(idx, s)
			}
		}
	}
	q, err := heapsim.Pretenured(p, idx)
	if err != nil {
		return nil, nil, err
	}
	d := &Pretenured{Change: pretenureChange}
	for _, s := range idx {
		d.Sites = append(d.Sites, p.SiteNames[s])
	}
	for i, s := range p.Site {
		if seen[s] {
			d.Records++
			d.Objects += uint64(p.Weight[i])
			d.Bytes += uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
		}
	}
	return q, d, nil
}

// Line is the line the text table states about the pretenured sites.
func (d *Pretenured) Line() string {
	names := make([]string, len(d.Sites))
	for i, s := range d.Sites {
		names[i] = termtext.Quote(s)
	}
	return "given run with pretenuring (a code change: basicNewTenured): " + strings.Join(names, ", ") +
		" (" + units.FormatCount(d.Objects) + " objects)"
}
