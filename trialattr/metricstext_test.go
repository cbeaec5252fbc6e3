package trialattr

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMetricsText: a trial's share and footprint in the session's words, nothing without a
// stored footprint.
func TestMetricsText(t *testing.T) {
	m := MetricsOf(map[string]string{GCShare: "0.016", Footprint: "13421772800"})
	assert.Equal(t, "GC share 1.6 %, peak footprint 12.5 GiB", m.Text())
	assert.Equal(t, "", MetricsOf(map[string]string{GCShare: "0.016"}).Text())
	assert.Equal(t, "", MetricsOf(nil).Text())
}
