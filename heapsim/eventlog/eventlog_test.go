package eventlog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

// TestWriter: the header, then one row per event, as many cells as columns; a full GC names
// its cause, a scavenge none.
func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWriter(&b)
	require.NoError(t, err)
	w.Add(&heapsim.Event{Kind: heapsim.EventScavenge, ClockBytes: 1 << 20, Seconds: 0.00125, RSEntries: 2.4})
	w.Add(&heapsim.Event{Kind: heapsim.EventFullGC, Cause: heapsim.CauseLargeAlloc, ClockBytes: 3 << 20, ThresholdBytes: -1,
		RequestBytes: 4096, MarkSeconds: 1.5})
	require.NoError(t, w.Flush())
	rows, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, Header(), rows[0])
	for _, r := range rows[1:] {
		assert.Len(t, r, len(Header()))
	}
	col := func(row []string, name string) string {
		for i, h := range Header() {
			if h == name {
				return row[i]
			}
		}
		t.Fatalf("no column %s", name)
		return ""
	}
	assert.Equal(t, "scavenge", col(rows[1], "kind"))
	assert.Equal(t, "", col(rows[1], "cause"))
	assert.Equal(t, "1048576", col(rows[1], "clock_bytes"))
	assert.Equal(t, "0.00125", col(rows[1], "seconds"))
	assert.Equal(t, "2", col(rows[1], "rs_entries"))
	assert.Equal(t, "fullgc", col(rows[2], "kind"))
	assert.Equal(t, heapsim.CauseLargeAlloc.String(), col(rows[2], "cause"))
	assert.Equal(t, "-1", col(rows[2], "threshold_bytes"))
	assert.Equal(t, "4096", col(rows[2], "request_bytes"))
	assert.Equal(t, "1.5", col(rows[2], "mark_seconds"))
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWriterError: a write error is returned once, by Flush.
func TestWriterError(t *testing.T) {
	w, err := NewWriter(failWriter{}) // the header is buffered
	require.NoError(t, err)
	w.Add(&heapsim.Event{Kind: heapsim.EventScavenge})
	assert.EqualError(t, w.Flush(), "disk full")
}
