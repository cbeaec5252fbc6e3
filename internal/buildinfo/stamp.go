package buildinfo

import (
	"cmp"
	"runtime/debug"
)

// RecommendationKey is the build's part of a stored recommendation's key
// (study.RecommendationSettings.Version): the version and the commit, so that a study's
// recommendation made by another gctune, a release or a build from another commit alike, is
// made again rather than reused. A build from a modified checkout has no identity to key on:
// "" makes its recommendations every time and never reuses one.
func (v Info) RecommendationKey() string {
	if v.Modified {
		return ""
	}
	return v.Version + "+" + v.Commit
}

// Stamp is the running build's identity as the commands write it, resolved once from the
// Build main injects: Version for what an output records (an export's, a new study's, a cost
// file's, the report's), Recommendation for a stored recommendation's key.
type Stamp struct {
	Version, Recommendation string
}

// NewStamp resolves b with the binary's embedded build information bi (nil when unavailable).
// Version is -ldflags' version as given ("dev" when none), not completed from bi.
func NewStamp(b Build, bi *debug.BuildInfo) Stamp {
	return Stamp{Version: cmp.Or(b.Version, "dev"), Recommendation: Resolve(b, bi).RecommendationKey()}
}
