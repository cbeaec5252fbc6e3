package gcprof

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/gctune/gctune/profile"
)

// appendSiteNames appends version 3's site table.
func appendSiteNames(hdr []byte, p *profile.Profile) ([]byte, error) {
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(p.SiteNames)))
	for _, name := range p.SiteNames {
		if len(name) > binaryMaxNameBytes {
			return nil, fmt.Errorf("gcprof: write binary profile: site name of %d bytes, over %d", len(name), binaryMaxNameBytes)
		}
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(name)))
		hdr = append(hdr, name...)
	}
	return hdr, nil
}

// readSiteNames reads version 3's site table into p, within the bounds of
// profile.CheckNameTable.
func (br *binReader) readSiteNames(p *profile.Profile) error {
	count, err := br.u32("site count")
	if err != nil {
		return err
	}
	if err := profile.CheckNameTable("site", int(min(count, profile.MaxSiteNames+1)), 0); err != nil {
		return br.corrupt("%v", err)
	}
	p.SiteNames = make([]string, 0, min(count, 1<<16))
	var nameBuf []byte
	total := 0
	for i := range count {
		l, err := br.u32("site name length")
		if err != nil {
			return err
		}
		if l > binaryMaxNameBytes {
			return br.corrupt("site %d: name length %d over %d", i, l, binaryMaxNameBytes)
		}
		if total += int(l); total > profile.MaxNameTableBytes {
			return br.corrupt("site names over %d bytes", profile.MaxNameTableBytes)
		}
		nameBuf = slices.Grow(nameBuf[:0], int(l))[:l]
		if err := br.full(nameBuf, "site names"); err != nil {
			return err
		}
		p.SiteNames = append(p.SiteNames, string(nameBuf))
	}
	return nil
}
