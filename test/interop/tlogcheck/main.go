// Command tlogcheck checks erx's transparency log output with Go's own implementation,
// golang.org/x/mod/sumdb/note and sumdb/tlog: signed checkpoints (note.Open with the log's
// Ed25519 key and tlog-cosignature/v1 witnesses), inclusion proofs (tlog.CheckRecord),
// consistency proofs (tlog.CheckTree), tlog-proof@v1 receipts, and the tiles and entry bundles
// (c2sp.org/tlog-tiles) read through tlog.TileHashReader, which authenticates every tile
// against the checkpoint's root.
//
// It reads one JSON request on stdin, prints a JSON summary and exits 0 when every check
// passes; otherwise it prints the first failure on stderr and exits 1.
//
// Build offline in GOPATH mode with Debian's golang-golang-x-mod-dev:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o tlogcheck ./test/interop/tlogcheck
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type request struct {
	Origin      string   `json:"origin"`
	LogKey      string   `json:"logKey"`
	Witnesses   []string `json:"witnesses"`
	MinCosigs   int      `json:"minCosignatures"`
	Checkpoints []string `json:"checkpoints"`
	Records     []struct {
		Checkpoint int      `json:"checkpoint"`
		Index      int64    `json:"index"`
		LeafHash   string   `json:"leafHash"`
		Proof      []string `json:"proof"`
	} `json:"records"`
	Consistency []struct {
		Old   int      `json:"old"`
		New   int      `json:"new"`
		Proof []string `json:"proof"`
	} `json:"consistency"`
	Receipts []struct {
		Text     string `json:"text"`
		LeafHash string `json:"leafHash"`
	} `json:"receipts"`
	Tiles *struct {
		BaseURL string `json:"baseURL"`
		Dir     string `json:"dir"`
		// Checkpoints whose tiles and entry bundles are read and checked in full.
		Checkpoints []int `json:"checkpoints"`
	} `json:"tiles"`
}

type checkpoint struct {
	tree   tlog.Tree
	cosigs int
}

func main() {
	summary, err := run(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tlogcheck:", err)
		os.Exit(1)
	}
	out, _ := json.Marshal(summary)
	fmt.Println(string(out))
}

func run(in io.Reader) (map[string]int, error) {
	var req request
	dec := json.NewDecoder(in)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("request: %v", err)
	}
	logVerifier, err := note.NewVerifier(req.LogKey)
	if err != nil {
		return nil, fmt.Errorf("log key: %v", err)
	}
	verifiers := []note.Verifier{logVerifier}
	for _, w := range req.Witnesses {
		v, err := newCosignatureVerifier(w)
		if err != nil {
			return nil, fmt.Errorf("witness key %q: %v", w, err)
		}
		verifiers = append(verifiers, v)
	}
	known := note.VerifierList(verifiers...)
	summary := map[string]int{}

	var cps []checkpoint
	for i, text := range req.Checkpoints {
		cp, err := openCheckpoint(text, req.Origin, logVerifier, known, req.MinCosigs)
		if err != nil {
			return nil, fmt.Errorf("checkpoint %d: %v", i, err)
		}
		cps = append(cps, cp)
	}
	summary["checkpoints"] = len(cps)
	at := func(i int) (tlog.Tree, error) {
		if i < 0 || i >= len(cps) {
			return tlog.Tree{}, fmt.Errorf("no checkpoint %d", i)
		}
		return cps[i].tree, nil
	}

	for i, r := range req.Records {
		tree, err := at(r.Checkpoint)
		if err != nil {
			return nil, err
		}
		leaf, err1 := tlog.ParseHash(r.LeafHash)
		proof, err2 := parseHashes(r.Proof)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("record %d: bad hash", i)
		}
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, r.Index, leaf); err != nil {
			return nil, fmt.Errorf("record %d (leaf %d in %d): %v", i, r.Index, tree.N, err)
		}
	}
	summary["records"] = len(req.Records)

	for i, c := range req.Consistency {
		old, err1 := at(c.Old)
		cur, err2 := at(c.New)
		proof, err3 := parseHashes(c.Proof)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("consistency %d: bad input", i)
		}
		if err := tlog.CheckTree(proof, cur.N, cur.Hash, old.N, old.Hash); err != nil {
			return nil, fmt.Errorf("consistency %d (%d -> %d): %v", i, old.N, cur.N, err)
		}
	}
	summary["consistency"] = len(req.Consistency)

	for i, r := range req.Receipts {
		if err := checkReceipt(r.Text, r.LeafHash, req.Origin, logVerifier, known, req.MinCosigs); err != nil {
			return nil, fmt.Errorf("receipt %d: %v", i, err)
		}
	}
	summary["receipts"] = len(req.Receipts)

	if req.Tiles != nil {
		reader := &tileReader{baseURL: req.Tiles.BaseURL, dir: req.Tiles.Dir}
		for _, i := range req.Tiles.Checkpoints {
			tree, err := at(i)
			if err != nil {
				return nil, err
			}
			n, err := checkTiles(tree, reader)
			if err != nil {
				return nil, fmt.Errorf("tiles of checkpoint %d (size %d): %v", i, tree.N, err)
			}
			summary["tileLeaves"] += n
		}
		summary["tilesFetched"] = reader.fetched
	}
	return summary, nil
}

func parseHashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(list))
	for i, s := range list {
		h, err := tlog.ParseHash(s)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// openCheckpoint verifies a signed checkpoint (c2sp.org/tlog-checkpoint) with note.Open and
// parses its text; tlog.ParseTree only knows the go.sum origin, so the three lines are read here.
func openCheckpoint(text, origin string, logKey note.Verifier, known note.Verifiers, minCosigs int) (checkpoint, error) {
	n, err := note.Open([]byte(text), known)
	if err != nil {
		return checkpoint{}, err
	}
	var logSigned bool
	cosigs := 0
	for _, s := range n.Sigs {
		if s.Name == logKey.Name() && s.Hash == logKey.KeyHash() {
			logSigned = true
		} else {
			cosigs++
		}
	}
	if !logSigned {
		return checkpoint{}, errors.New("not signed by the log key")
	}
	if cosigs < minCosigs {
		return checkpoint{}, fmt.Errorf("%d cosignatures, want %d", cosigs, minCosigs)
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 || lines[0] != origin {
		return checkpoint{}, fmt.Errorf("not a checkpoint of %q", origin)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return checkpoint{}, errors.New("malformed tree size")
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		return checkpoint{}, err
	}
	return checkpoint{tree: tlog.Tree{N: size, Hash: root}, cosigs: cosigs}, nil
}
