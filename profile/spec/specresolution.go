package spec

import "gopkg.in/yaml.v3"

// resolution parses a spec's (or a mix entry's) resolution key. Written out, it must be in
// [specMinResolution, 1] as docs/workloads.md says; 0 is refused here because in the Spec it
// means "not given" (one record per object), which a written 0 would silently become.
func (p *specParser) resolution(n *yaml.Node, path string) (float64, error) {
	v, err := p.number(n, path)
	if err != nil {
		return 0, err
	}
	if v == 0 {
		return 0, p.errf(n, path, "0 is not a number of records per real object in [%g, 1] (leave the key out for one record per object)", specMinResolution)
	}
	return v, nil
}
