package lifetimes

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gctune/gctune/profile"
)

// z95 is the normal quantile of a two-sided 95 % interval.
const z95 = 1.959964

// SiteSummary is one allocation site's row of the sites table (docs/sites.md). Counts and
// bytes are weighted; lifetimes are fractions of the run. The *CI95 fields are the half-widths
// of 95 % intervals when the profile is a sample (SiteOptions.Sampled), 0 otherwise.
type SiteSummary struct {
	// Site is the site's name as the exporter wrote it ("Foo>>#bar @23").
	Site    string `json:"site"`
	Records int    `json:"records"`
	// Objects and Bytes are what the site allocated.
	Objects     uint64  `json:"objects"`
	ObjectsCI95 float64 `json:"objectsCI95,omitempty"`
	Bytes       uint64  `json:"bytes"`
	BytesCI95   float64 `json:"bytesCI95,omitempty"`
	// ByteShare is the site's share of all allocated bytes.
	ByteShare float64 `json:"byteShare"`
	// AverageLifetime is the mean lifetime of the site's objects, a fraction of the run.
	AverageLifetime     float64 `json:"averageLifetime"`
	AverageLifetimeCI95 float64 `json:"averageLifetimeCI95,omitempty"`
	// LongLivedShare is the share of the site's objects that are long-lived.
	LongLivedShare     float64 `json:"longLivedShare"`
	LongLivedShareCI95 float64 `json:"longLivedShareCI95,omitempty"`
	// DirectOldBytes are the site's bytes allocated straight into old space (by size or flag,
	// profile.AllocatesInOldSpace).
	DirectOldBytes uint64 `json:"directOldBytes"`
	// TenuredBytes are the site's bytes the scavenger copied and then tenured in a simulation
	// (SiteOptions.TenuredBytes, heapsim.Options.TenuredBytesBySite), with the relative
	// uncertainty of the site's bytes when sampled.
	TenuredBytes     uint64  `json:"tenuredBytes"`
	TenuredBytesCI95 float64 `json:"tenuredBytesCI95,omitempty"`
	// LargeAllocFullGCs are the full GCs the simulation ran because one of the site's objects,
	// allocated straight into old space, found no free chunk (SiteOptions.LargeAllocFullGCs).
	LargeAllocFullGCs int `json:"largeAllocFullGCs"`
}

// SiteOptions are the settings of Sites.
type SiteOptions struct {
	// LongLivedThreshold is as in AnalysisOptions (0: profile.DefaultLongLivedThreshold).
	LongLivedThreshold float64
	// Sampled says that the records are a 1/N sample of the allocations (a FiLiP export
	// below rate 1), so that every figure is an estimate: Sites states its 95 % interval. A
	// generated profile's weights are a resolution, not a sample.
	Sampled bool
	// TenuredBytes, one entry per Profile.SiteNames, are the bytes a simulation's scavenger
	// tenured by site; nil leaves SiteSummary.TenuredBytes 0.
	TenuredBytes []uint64
	// LargeAllocFullGCs, one entry per Profile.SiteNames, are the full GCs a simulation's
	// allocation failures ran, by the site allocating; nil leaves them 0.
	LargeAllocFullGCs []int
}

// Sites returns the per-site table of p, the sites that forced the most full GCs first, then
// those that tenured the most bytes, then by bytes allocated, then by name. It fails when p names no sites.
//
// Uncertainty at 1/N. The exporter records every N-th allocation; a site's k records then
// estimate its count as k·N. Taking the recorded allocations as a random 1/N draw (the
// systematic sampling of IllAbstractProfiler>>registerAllocation: is one with a random start,
// docs/sampling.md), the count's standard error is N·sqrt(k·(1 − 1/N)), the bytes' is
// N·sqrt(Σ size² · (1 − 1/N)), the mean lifetime's is its standard deviation over sqrt(k), and
// the long-lived share's sqrt(q(1 − q)/k). Records that weigh 1 in a sampled profile (large
// objects, which a rebuilt export counts once) add no variance. Intervals are ±1.96 standard
// errors.
func Sites(p *profile.Profile, opts SiteOptions) ([]SiteSummary, error) {
	if p == nil {
		return nil, errors.New("lifetimes: sites: nil profile")
	}
	if !p.HasSites() {
		return nil, fmt.Errorf("lifetimes: sites: the profile %s names no allocation sites", p.Meta.Source)
	}
	threshold := opts.LongLivedThreshold
	if threshold == 0 {
		threshold = profile.DefaultLongLivedThreshold
	}
	if err := ValidateLongLivedThreshold(threshold); err != nil {
		return nil, err
	}
	if opts.TenuredBytes != nil && len(opts.TenuredBytes) != len(p.SiteNames) {
		return nil, fmt.Errorf("lifetimes: sites: %d tenured-byte entries, the profile has %d sites", len(opts.TenuredBytes), len(p.SiteNames))
	}
	end := float64(p.Meta.EndBytes)
	longBytes := uint64(threshold * end)
	type acc struct {
		records                      int
		objects, bytes, direct       uint64
		sampledK, sampledSq          float64 // sampled records (weight > 1) and Σ size² of them
		sampledW                     float64 // their weight (N)
		lifeSum, longLived           float64 // weighted
		lifeK, lifeSumRec, lifeSqRec float64 // per record, for the standard error
		longRec                      float64
	}
	accs := make([]acc, len(p.SiteNames))
	var totalBytes float64
	for i := range p.Len() {
		a := &accs[p.Site[i]]
		w := float64(p.Weight[i])
		size := float64(p.SizeBytes[i])
		life := float64(p.Death[i] - p.Birth[i])
		a.records++
		a.objects += uint64(p.Weight[i])
		a.bytes += uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
		totalBytes += w * size
		if profile.AllocatesInOldSpace(p.SizeBytes[i], p.Flags[i]) {
			a.direct += uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
		}
		long := p.AliveAtEnd(i) || p.Death[i]-p.Birth[i] >= longBytes
		a.lifeSum += w * life
		if long {
			a.longLived += w
			a.longRec++
		}
		frac := 0.0
		if end > 0 {
			frac = life / end
		}
		a.lifeK++
		a.lifeSumRec += frac
		a.lifeSqRec += frac * frac
		if p.Weight[i] > 1 {
			a.sampledK++
			a.sampledSq += size * size
			a.sampledW = max(a.sampledW, w)
		}
	}
	out := make([]SiteSummary, 0, len(accs))
	for s, a := range accs {
		if a.records == 0 {
			continue
		}
		row := SiteSummary{Site: p.SiteNames[s], Records: a.records, Objects: a.objects, Bytes: a.bytes, DirectOldBytes: a.direct}
		if totalBytes > 0 {
			row.ByteShare = float64(a.bytes) / totalBytes
		}
		if a.objects > 0 && end > 0 {
			row.AverageLifetime = a.lifeSum / float64(a.objects) / end
			row.LongLivedShare = a.longLived / float64(a.objects)
		}
		if opts.TenuredBytes != nil {
			row.TenuredBytes = opts.TenuredBytes[s]
		}
		if s < len(opts.LargeAllocFullGCs) {
			row.LargeAllocFullGCs = opts.LargeAllocFullGCs[s]
		}
		if opts.Sampled && a.sampledK > 0 {
			n := a.sampledW
			f := 1 - 1/n
			row.ObjectsCI95 = z95 * n * math.Sqrt(a.sampledK*f)
			row.BytesCI95 = z95 * n * math.Sqrt(a.sampledSq*f)
			k := a.lifeK
			mean := a.lifeSumRec / k
			if k > 1 {
				sd := math.Sqrt(max(a.lifeSqRec/k-mean*mean, 0) * k / (k - 1))
				row.AverageLifetimeCI95 = z95 * sd / math.Sqrt(k)
			}
			q := a.longRec / k
			row.LongLivedShareCI95 = z95 * math.Sqrt(q*(1-q)/k)
			if a.bytes > 0 {
				row.TenuredBytesCI95 = float64(row.TenuredBytes) * row.BytesCI95 / float64(a.bytes)
			}
		}
		out = append(out, row)
	}
	slices.SortStableFunc(out, func(x, y SiteSummary) int {
		if c := cmp.Compare(y.LargeAllocFullGCs, x.LargeAllocFullGCs); c != 0 {
			return c
		}
		if c := cmp.Compare(y.TenuredBytes, x.TenuredBytes); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Bytes, x.Bytes); c != 0 {
			return c
		}
		return cmp.Compare(x.Site, y.Site)
	})
	return out, nil
}
