package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

const tileHeight = 8

// tileReader serves tlog.TileHashReader from c2sp.org/tlog-tiles paths: Go names a tile
// tile/<H>/<L>/<N>[.p/<W>], the C2SP layout drops the height (always 8).
type tileReader struct {
	baseURL string
	dir     string
	fetched int
}

func (r *tileReader) Height() int { return tileHeight }

func (r *tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

func c2spPath(t tlog.Tile) string {
	p := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", tileHeight))
	if strings.HasPrefix(p, "data/") {
		return "tile/entries/" + strings.TrimPrefix(p, "data/")
	}
	return "tile/" + p
}

func (r *tileReader) fetch(path string) ([]byte, error) {
	r.fetched++
	if r.dir != "" {
		return os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(path)))
	}
	resp, err := http.Get(strings.TrimSuffix(r.baseURL, "/") + "/" + path)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

func (r *tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		data, err := r.fetch(c2spPath(t))
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

// checkTiles reads the whole tree through tlog.TileHashReader (every tile it returns is
// authenticated against the checkpoint root), recomputes the root with tlog.TreeHash, checks an
// inclusion proof built from the tiles for every leaf, and checks that every entry of every
// entry bundle hashes (tlog.RecordHash) to its leaf hash. It returns the number of leaves checked.
func checkTiles(tree tlog.Tree, r *tileReader) (int, error) {
	thr := tlog.TileHashReader(tree, r)
	root, err := tlog.TreeHash(tree.N, thr)
	if err != nil {
		return 0, fmt.Errorf("TreeHash: %v", err)
	}
	if root != tree.Hash {
		return 0, errors.New("TreeHash from tiles differs from the checkpoint")
	}
	for start := int64(0); start < tree.N; start += 1 << tileHeight {
		width := tree.N - start
		if width > 1<<tileHeight {
			width = 1 << tileHeight
		}
		bundle := tlog.Tile{H: tileHeight, L: -1, N: start >> tileHeight, W: int(width)}
		data, err := r.fetch(c2spPath(bundle))
		if err != nil {
			return 0, err
		}
		entries, err := splitBundle(data)
		if err != nil || int64(len(entries)) != width {
			return 0, fmt.Errorf("entry bundle %s: %d entries, %v", c2spPath(bundle), len(entries), err)
		}
		indexes := make([]int64, width)
		for i := range indexes {
			indexes[i] = tlog.StoredHashIndex(0, start+int64(i))
		}
		leaves, err := thr.ReadHashes(indexes)
		if err != nil {
			return 0, err
		}
		for i, e := range entries {
			if tlog.RecordHash(e) != leaves[i] {
				return 0, fmt.Errorf("entry %d does not hash to its leaf", start+int64(i))
			}
			proof, err := tlog.ProveRecord(tree.N, start+int64(i), thr)
			if err != nil {
				return 0, err
			}
			if err := tlog.CheckRecord(proof, tree.N, tree.Hash, start+int64(i), leaves[i]); err != nil {
				return 0, err
			}
		}
	}
	return int(tree.N), nil
}

func splitBundle(data []byte) ([][]byte, error) {
	var out [][]byte
	for r := bytes.NewReader(data); r.Len() > 0; {
		var n uint16
		if err := binary.Read(r, binary.BigEndian, &n); err != nil {
			return nil, err
		}
		e := make([]byte, n)
		if _, err := io.ReadFull(r, e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
