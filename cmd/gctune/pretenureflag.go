package main

import (
	"errors"
	"strings"

	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/profile"
)

// pretenureDoc says which allocation sites the given run allocated straight into old space
// (simulate --pretenure: pretenure.Applied, its JSON keys as they are).
type pretenureDoc struct{ pretenure.Applied }

// pretenuredProfile is pretenure.Apply, its refusals worded for --pretenure (exit code 2).
func pretenuredProfile(p *profile.Profile, patterns []string) (*profile.Profile, *pretenureDoc, error) {
	q, d, err := pretenure.Apply(p, patterns)
	if errors.Is(err, pretenure.ErrNoSites) {
		return nil, nil, usageErrorf("--pretenure: the profile %s names no allocation sites (a FiLiP export since 2024-04, or a spec with site:)", quoteName(p.Meta.Source))
	}
	if nm, ok := errors.AsType[*pretenure.NoMatchError](err); ok {
		return nil, nil, usageErrorf("--pretenure %s: no allocation site of the profile matches (gctune lifetimes lists them)", quoteName(nm.Pattern))
	}
	if err != nil {
		return nil, nil, err
	}
	return q, &pretenureDoc{*d}, nil
}

// line is the line printSimulate writes about the pretenured sites.
func (d *pretenureDoc) line() string {
	names := make([]string, len(d.Sites))
	for i, s := range d.Sites {
		names[i] = quoteName(s)
	}
	return "given run with pretenuring (a code change: basicNewTenured): " + strings.Join(names, ", ") +
		" (" + formatCount(d.Objects) + " objects)"
}
