package filip

import (
	"bytes"
	"fmt"

	"github.com/gctune/gctune/profile"
)

// Allocation sites. Every layout since a2e61ff (2024-04-10) names the method that allocated
// each object, written by the exporter as the CompiledMethod's printString (`Foo>>#bar`:
// `allocatorMethod name`, `allocationSite name` or `textualAllocatorMethod name` in the
// exporter's flattenedInstanceVariables), and since 330a870 (2024-09-16) the bytecode offset
// of the allocation (`programCounter - 1`, FiLiP's `offset`, `filteredContext pc - 1`). The
// reader keeps them as one site per record, "method @offset" (profile.SiteOffsetSeparator),
// interned like classes and bounded like them (profile.MaxSiteNames).

// siteShape says where a layout's allocation-site columns put the method and the offset.
type siteShape uint8

const (
	siteNone              siteShape = iota // no site column
	siteMethod                             // method
	siteMethodOffset                       // method, offset
	siteMethodClassOffset                  // method, allocatorClass, offset
	siteClassMethod                        // allocatorClass, method
)

// siteShapeOf returns the site shape of the layout named name.
func siteShapeOf(name string) siteShape {
	switch name {
	case LayoutCurrent, LayoutAllocatorMethod, LayoutForcedAllocatorMethodByte:
		return siteMethodOffset
	case LayoutForcedAllocatorMethodClassByte:
		return siteMethodClassOffset
	case LayoutForcedAllocatorMethod, LayoutForcedAllocationSite:
		return siteMethod
	case LayoutForcedAllocatorClassMethod:
		return siteClassMethod
	}
	return siteNone
}

// siteKey writes into r.siteBuf the site name of a row whose allocation-site columns are rest
// ("" for an empty method) and returns it. Columns that cannot hold commas (a class name, an
// offset) are taken from the right, or from the left for a2e61ff's leading allocatorClass;
// the method is the rest.
func (r *filipReader) siteKey(rest []byte) []byte {
	var method, offset []byte
	switch r.siteShape {
	case siteMethod:
		method = rest
	case siteMethodOffset:
		i := bytes.LastIndexByte(rest, ',')
		method, offset = rest[:max(i, 0)], rest[i+1:]
	case siteMethodClassOffset:
		i := bytes.LastIndexByte(rest, ',')
		offset = rest[i+1:]
		rest = rest[:max(i, 0)]
		method = rest[:max(bytes.LastIndexByte(rest, ','), 0)]
	case siteClassMethod:
		method = rest[bytes.IndexByte(rest, ',')+1:]
	}
	method, offset = bytes.TrimSpace(method), bytes.TrimSpace(offset)
	r.siteBuf = append(r.siteBuf[:0], method...)
	if len(method) > 0 && len(offset) > 0 {
		r.siteBuf = append(r.siteBuf, profile.SiteOffsetSeparator...)
		r.siteBuf = append(r.siteBuf, offset...)
	}
	return r.siteBuf
}

// internSite returns the site index of a row's allocation-site columns. The map lookup with
// a converted byte slice does not allocate; a new name is copied once. Past the bound it
// records the refusal in r.namesErr (the row's caller returns it) and answers 0.
func (r *filipReader) internSite(rest []byte) uint32 {
	key := r.siteKey(rest)
	if i, ok := r.sites[string(key)]; ok {
		return i
	}
	name := string(key)
	i := uint32(len(r.siteNames))
	r.siteNameBytes += len(name)
	count := len(r.siteNames) + 1
	if r.sharedNames != nil {
		count = int(r.sharedNames[1].Add(1))
	}
	if err := profile.CheckNameTable("site", count, r.siteNameBytes); err != nil {
		r.tooMany(err)
		return 0
	}
	if name == "" {
		r.siteNames = append(r.siteNames, profile.UnknownSite)
	} else {
		r.siteNames = append(r.siteNames, name)
	}
	r.sites[name] = i
	return i
}

// tooMany keeps the first bound error, naming the input and the line.
func (r *filipReader) tooMany(err error) {
	switch {
	case r.namesErr != nil:
	case r.sharedNames != nil: // a parallel worker counts lines from its chunk's start
		r.namesErr = fmt.Errorf("filip: %s: %w: refused", r.name, err)
	default:
		r.namesErr = fmt.Errorf("filip: %s:%d: %w: refused", r.name, r.line, err)
	}
}

// mergeSites appends a parallel worker's site table to r's (globalIndex maps a name to its
// index in r's table) and rewrites the worker's site column to r's indices.
func (r *filipReader) mergeSites(w *filipReader, globalIndex map[string]uint32) error {
	if w.site == nil {
		return nil
	}
	global := make([]uint32, len(w.siteNames))
	for li, name := range w.siteNames {
		gi, ok := globalIndex[name]
		if !ok {
			gi = uint32(len(r.siteNames))
			r.siteNames = append(r.siteNames, name)
			r.siteNameBytes += len(name)
			globalIndex[name] = gi
			if err := profile.CheckNameTable("site", len(r.siteNames), r.siteNameBytes); err != nil {
				return fmt.Errorf("filip: %s: %w: refused", r.name, err)
			}
		}
		global[li] = gi
	}
	for li, s := range w.site {
		w.site[li] = global[s]
	}
	return nil
}
