package termtext

import (
	"math"
	"strings"
)

// Bar draws share/full as a horizontal bar of up to width cells with eighth-cell resolution;
// a share above 0 draws at least an eighth, a share of 0 (or full ≤ 0) nothing.
func Bar(share, full float64, width int) string {
	if full <= 0 || share <= 0 {
		return ""
	}
	eighths := int(math.Round(share / full * float64(width*8)))
	if eighths == 0 {
		eighths = 1 // visible, however small
	}
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + partial[eighths%8]
}
