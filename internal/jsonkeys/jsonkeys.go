// Package jsonkeys finds a key given twice in one JSON object. encoding/json accepts such a
// document and silently keeps the last value, so a reader that must not guess which value was
// meant checks the document with FirstDuplicate before decoding it.
package jsonkeys

import (
	"encoding/json"
	"errors"
	"io"
)

// MaxDepth is how deeply FirstDuplicate follows nested objects and arrays, as deep as
// encoding/json decodes.
const MaxDepth = 10000

// ErrTooDeep is FirstDuplicate's error for a document nested deeper than MaxDepth.
var ErrTooDeep = errors.New("nested too deep")

// FirstDuplicate reads the first JSON value in r and returns the first key, in document order,
// that one object holds twice, with found true; found is false when no object does. A
// malformed document is not an error: the keys up to the fault are checked, and the decoder
// that reads the document words the fault better. The errors are ErrTooDeep and r's own.
func FirstDuplicate(r io.Reader) (key string, found bool, err error) {
	dec := json.NewDecoder(r)
	dec.UseNumber() // a number is never an error, whatever its size
	err = walk(dec, 0)
	var dup duplicate
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &dup):
		return string(dup), true, nil
	case err == nil, errors.As(err, &syn), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "", false, nil
	}
	return "", false, err
}

// duplicate is walk's error for a key given twice.
type duplicate string

func (d duplicate) Error() string { return "duplicate key " + string(d) }

// walk reads one value from dec, depth levels down, and fails on the first key given twice.
func walk(dec *json.Decoder, depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	t, err := dec.Token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			if seen[key] {
				return duplicate(key)
			}
			seen[key] = true
			if err := walk(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		for dec.More() {
			if err := walk(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}
