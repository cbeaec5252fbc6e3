package profile

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Bounds on the interned name tables. A real Pharo image holds some tens of thousands of
// classes and a few hundred thousand methods, so a profile naming more than MaxClassNames
// distinct classes, or MaxSiteNames distinct allocation sites, or whose names take more than
// MaxNameTableBytes, was not written by a profiler: the readers refuse it (ErrTooManyNames)
// before its table can grow without bound (a 10 M-distinct-class CSV streamed to `lifetimes`
// once took 4.4 GB). Each table's memory is then bounded by about
// MaxNameTableBytes + 100 bytes × its count bound.
const (
	MaxClassNames     = 1 << 20
	MaxSiteNames      = 1 << 20
	MaxNameTableBytes = 64 << 20
)

// ErrTooManyNames is wrapped by the errors a reader returns for an input with more distinct
// class or site names than the bounds above.
var ErrTooManyNames = errors.New("too many distinct names")

// UnknownSite is the site of a record whose input names none, in a profile that names sites
// for others (a spec entry without site:, an empty site field).
const UnknownSite = "(unknown site)"

// SiteOffsetSeparator joins an allocation site's method and its bytecode offset, as the
// exporter writes them in two columns (textualAllocatorMethod, textualAllocatorMethodOffset):
// "NeoCSVReader>>#readField @23". Neither a method's printString nor an offset holds it.
const SiteOffsetSeparator = " @"

// CheckNameTable returns an error wrapping ErrTooManyNames when a table of kind ("class" or
// "site") with count names of totalBytes bytes exceeds its bound.
func CheckNameTable(kind string, count, totalBytes int) error {
	limit := MaxClassNames
	if kind == "site" {
		limit = MaxSiteNames
	}
	if count > limit {
		return fmt.Errorf("%w: more than %d distinct %s names, the bound (docs/sites.md)", ErrTooManyNames, limit, kind)
	}
	if totalBytes > MaxNameTableBytes {
		return fmt.Errorf("%w: the %s names take more than %d bytes, the bound (docs/sites.md)", ErrTooManyNames, kind, MaxNameTableBytes)
	}
	return nil
}

// HasSites reports whether the profile names allocation sites.
func (p *Profile) HasSites() bool { return p.Site != nil }

// SiteName returns record i's allocation site, UnknownSite when the profile names none.
func (p *Profile) SiteName(i int) string {
	if p.Site == nil {
		return UnknownSite
	}
	return p.SiteNames[p.Site[i]]
}

// Site interns an allocation site's name and returns its index (Profile.SiteNames).
func (b *Builder) Site(name string) uint32 {
	if b.siteIndex == nil {
		b.siteIndex = make(map[string]uint32)
		for i, n := range b.p.SiteNames {
			b.siteIndex[n] = uint32(i)
		}
	}
	if i, ok := b.siteIndex[name]; ok {
		return i
	}
	i := uint32(len(b.p.SiteNames))
	b.p.SiteNames = append(b.p.SiteNames, name)
	b.siteIndex[name] = i
	return i
}

// noSite marks, in the Builder's site column, a record no SetSite named: Build gives it
// UnknownSite, interned only then.
const noSite = math.MaxUint32

// SetSite sets record i's site (an index from Site). The first call creates the column; the
// records no call names get UnknownSite.
func (b *Builder) SetSite(i int, site uint32) {
	if b.p.Site == nil {
		b.p.Site = make([]uint32, len(b.p.Birth), cap(b.p.Birth))
		for k := range b.p.Site {
			b.p.Site[k] = noSite
		}
	}
	b.p.Site[i] = site
}

// resolveSites gives UnknownSite to the records no SetSite named.
func (b *Builder) resolveSites() {
	if !slices.Contains(b.p.Site, noSite) {
		return
	}
	unknown := b.Site(UnknownSite)
	for k, s := range b.p.Site {
		if s == noSite {
			b.p.Site[k] = unknown
		}
	}
}

// validateSites checks the Site column: one entry per record, each indexing SiteNames.
func (p *Profile) validateSites() error {
	if p.Site == nil {
		return nil
	}
	if len(p.Site) != p.Len() {
		return fmt.Errorf("%w: site column has %d entries, birth has %d", ErrInvalidProfile, len(p.Site), p.Len())
	}
	if len(p.SiteNames) > MaxSiteNames {
		return fmt.Errorf("%w: %d site names, at most %d", ErrInvalidProfile, len(p.SiteNames), MaxSiteNames)
	}
	for i, s := range p.Site {
		if int(s) >= len(p.SiteNames) {
			return fmt.Errorf("%w: record %d has site index %d, table has %d", ErrInvalidProfile, i, s, len(p.SiteNames))
		}
	}
	return nil
}

// SplitSite splits a site name into its method and its bytecode offset ("" when the
// exporter wrote none).
func SplitSite(name string) (method, offset string) {
	if i := strings.LastIndex(name, SiteOffsetSeparator); i >= 0 {
		return name[:i], name[i+len(SiteOffsetSeparator):]
	}
	return name, ""
}

// NormalSiteName writes a site's method the way Pharo prints a CompiledMethod ("Foo>>#bar"),
// so that "Foo>>bar", as a user or a paper may write it, names the same method.
func NormalSiteName(m string) string { return normalMethod(m) }

func normalMethod(m string) string {
	m = strings.TrimSpace(m)
	if i := strings.Index(m, ">>"); i >= 0 && !strings.HasPrefix(m[i+2:], "#") {
		return m[:i+2] + "#" + m[i+2:]
	}
	return m
}

// MatchSites returns the indices of the sites a user's pattern names: the site itself
// ("Foo>>#bar @23") or every site of a method ("Foo>>#bar", or "Foo>>bar"), in table order.
func (p *Profile) MatchSites(pattern string) []uint32 {
	want := normalMethod(pattern)
	wantMethod, wantOffset := SplitSite(want)
	var out []uint32
	for i, name := range p.SiteNames {
		m, off := SplitSite(name)
		if normalMethod(m) != normalMethod(wantMethod) {
			continue
		}
		if wantOffset != "" && off != wantOffset {
			continue
		}
		out = append(out, uint32(i))
	}
	return out
}
