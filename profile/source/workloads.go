package source

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"text/tabwriter"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile/spec"
)

// Workload is one bundled workload, with the records it generates.
type Workload struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Records is the number of records the workload generates with the list's seed and
	// resolution (what the commands that open it count).
	Records int `json:"records"`
}

// Workloads is the list of bundled workloads `gctune workloads` prints.
type Workloads struct {
	// Seed and Resolution are the generator's (0: each spec's own resolution).
	Seed       uint64     `json:"seed"`
	Resolution float64    `json:"resolution"`
	Workloads  []Workload `json:"workloads"`
}

// CountWorkloads lists the bundled workloads with the records each generates with seed and
// resolution: counted by opening each, as the commands do, two at a time.
func CountWorkloads(seed uint64, resolution float64) (*Workloads, error) {
	bundled := spec.Bundled()
	doc := &Workloads{Seed: seed, Resolution: resolution, Workloads: make([]Workload, len(bundled))}
	errs := make([]error, len(bundled))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, wl := range bundled {
		doc.Workloads[i] = Workload{Name: wl.Name, Description: wl.Description}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			p, _, err := Open(wl.Name, Options{Seed: seed, Resolution: resolution})
			if err != nil {
				errs[i] = fmt.Errorf("workload %s: %w", wl.Name, err)
				return
			}
			doc.Workloads[i].Records = p.Len()
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return doc, nil
}

// WriteText writes the table of workloads: name, records, description.
func (d *Workloads) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	ew := errwriter.New(tw)
	ew.Printf("NAME\tRECORDS\tDESCRIPTION\n")
	for _, wl := range d.Workloads {
		ew.Printf("%s\t%s\t%s\n", wl.Name, units.FormatCount(uint64(max(wl.Records, 0))), wl.Description)
	}
	if ew.Err() != nil {
		return ew.Err()
	}
	return tw.Flush()
}
