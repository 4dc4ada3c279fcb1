package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// checkReceipt parses a c2sp.org/tlog-proof@v1 text independently of erx's parser and checks
// it: the checkpoint under the same policy, then the inclusion proof with tlog.CheckRecord.
func checkReceipt(text, leafHash, origin string, logKey note.Verifier, known note.Verifiers, minCosigs int) error {
	head, cpText, ok := strings.Cut(text, "\n\n")
	if !ok {
		return errors.New("no blank line")
	}
	lines := strings.Split(head, "\n")
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		return errors.New("bad header")
	}
	lines = lines[1:]
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		if _, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[0], "extra ")); err != nil {
			return errors.New("bad extra line")
		}
		lines = lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		return errors.New("no index line")
	}
	indexText := strings.TrimPrefix(lines[0], "index ")
	index, err := strconv.ParseInt(indexText, 10, 64)
	if err != nil || index < 0 || strconv.FormatInt(index, 10) != indexText {
		return errors.New("bad index")
	}
	proof, err := parseHashes(lines[1:])
	if err != nil {
		return fmt.Errorf("bad proof hash: %v", err)
	}
	cp, err := openCheckpoint(cpText, origin, logKey, known, minCosigs)
	if err != nil {
		return err
	}
	leaf, err := tlog.ParseHash(leafHash)
	if err != nil {
		return err
	}
	return tlog.CheckRecord(proof, cp.tree.N, cp.tree.Hash, index, leaf)
}
