package main

import (
	"io"

	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
)

// sitesDoc is the sites table of `gctune lifetimes` (pretenure.SitesTable).
type sitesDoc = pretenure.SitesTable

// newSitesDoc builds the sites table of p (pretenure.NewSitesTable), nil when p names no
// sites; a FiLiP export sampled at 1/N states its figures with their intervals.
func newSitesDoc(p *profile.Profile, info *source.Info, threshold float64) (*sitesDoc, error) {
	return pretenure.NewSitesTable(p, info.Kind == source.KindFiLiP && p.Meta.SamplingRate < 1, threshold)
}

// printSites writes the sites table, its first n rows (0: all).
func printSites(w io.Writer, d *sitesDoc, n int) error { return d.WriteText(w, n) }
