package spec

import (
	"embed"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
)

// bundledFS holds the bundled workload specs, one NAME.yaml each (documented in
// docs/workloads.md).
//
//go:embed workloads/*.yaml
var bundledFS embed.FS

// WorkloadInfo describes a bundled workload.
type WorkloadInfo struct {
	// Name is what BundledSpec and `gctune ... NAME` accept.
	Name string
	// Description says what the workload stands for.
	Description string
	// Resolution is the workload's default resolution (records per real object).
	Resolution float64
	// Records is about how many records Generate produces at the default resolution.
	Records int
}

// Bundled lists the bundled workloads, sorted by name.
func Bundled() []WorkloadInfo {
	entries, err := fs.ReadDir(bundledFS, "workloads")
	if err != nil { // cannot happen: the directory is embedded
		return nil
	}
	out := make([]WorkloadInfo, 0, len(entries))
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".yaml")
		if !ok {
			continue
		}
		info := WorkloadInfo{Name: name}
		if s, err := BundledSpec(name); err != nil {
			info.Description = err.Error()
		} else {
			info.Description = s.Description
			info.Resolution = s.generationResolution(0)
			if est := s.EstimateRecords(0); est < math.MaxInt32 {
				info.Records = int(math.Round(est))
			}
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b WorkloadInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// BundledSpec returns the parsed spec of a bundled workload. An unknown name is an error that
// lists the known ones.
func BundledSpec(name string) (*Spec, error) {
	data, err := bundledFS.ReadFile(path.Join("workloads", name+".yaml"))
	if err != nil || strings.ContainsAny(name, "/\\") || name == "" {
		entries, _ := fs.ReadDir(bundledFS, "workloads")
		var names []string
		for _, e := range entries {
			if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		return nil, fmt.Errorf("spec: unknown workload %q (bundled: %s)", name, strings.Join(names, ", "))
	}
	return Parse(data, "workload:"+name)
}
