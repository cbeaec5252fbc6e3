// Package units parses and formats the byte sizes gctune's configuration and output use.
//
// ParseBytes accepts a plain number of bytes ("1024") or a number followed by a unit, with or
// without a space between them ("64MiB", "64 m", "1.5GiB", "512k"). The single letters k, m, g
// and t (either case) and the IEC units KiB, MiB, GiB and TiB are binary multiples (1 k = 1 KiB
// = 1024 bytes): that is what Pharo's VM, heap sizes and the papers gctune builds on mean by
// "MB". The SI units kB/KB, MB, GB and TB are decimal (1 MB = 1,000,000 bytes), for sizes
// copied from a file listing or a paper that uses them. FormatBytes writes binary units.
package units
