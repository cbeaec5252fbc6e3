package pretenure

import (
	"strconv"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
)

// AppliedChange is the code change a pretenured site stands for, as Applied records it.
const AppliedChange = "allocate with basicNewTenured / basicNewTenured: / newTenured (primitives 596, 597) instead of basicNew / basicNew: / new at these sites"

// Applied says which allocation sites a run allocated straight into old space (simulate
// --pretenure, docs/sites.md) and what they allocate: a change to the application's code, not
// a GC parameter.
type Applied struct {
	// Sites are the sites matched, as the profile names them, in the order first matched.
	Sites []string `json:"sites"`
	// Records, Objects and Bytes are what they allocate.
	Records int    `json:"records"`
	Objects uint64 `json:"objects"`
	Bytes   uint64 `json:"bytes"`
	// Change is the change to the Pharo code the run stands for (AppliedChange).
	Change string `json:"change"`
}

// NoMatchError is a pattern Apply was given that names no allocation site of the profile.
type NoMatchError struct{ Pattern string }

// Error names the pattern.
func (e *NoMatchError) Error() string {
	return "pretenure: no allocation site of the profile matches " + strconv.Quote(e.Pattern)
}

// Apply returns the view of p with the sites the patterns name pretenured (heapsim.Pretenured)
// and what it pretenures. Each pattern is a site ("Foo>>#bar @23") or a method ("Foo>>#bar",
// "Foo>>bar"), which names all of its sites (profile.Profile.MatchSites). A profile that names
// no sites is ErrNoSites; a pattern naming none is a *NoMatchError.
func Apply(p *profile.Profile, patterns []string) (*profile.Profile, *Applied, error) {
	if !p.HasSites() {
		return nil, nil, ErrNoSites
	}
	var idx []uint32
	seen := make(map[uint32]bool)
	for _, pat := range patterns {
		m := p.MatchSites(pat)
		if len(m) == 0 {
			return nil, nil, &NoMatchError{Pattern: pat}
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
	d := &Applied{Change: AppliedChange}
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
