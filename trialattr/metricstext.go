package trialattr

import (
	"fmt"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
)

// Text states the trial's GC share and peak footprint as the session's summary does
// ("GC share 1.6 %, peak footprint 12.5 GiB"): "" when no footprint was stored.
func (m Metrics) Text() string {
	if !m.HasFootprint {
		return ""
	}
	return fmt.Sprintf("GC share %s, peak footprint %s", numfmt.PercentText(m.GCShare), units.FormatBytes(m.PeakFootprintBytes))
}
