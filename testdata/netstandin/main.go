// Command netstandin runs gpuwiz's three network clients (the wheel downloader, the index check and
// the source probe) with the settings of the machine it runs on, and prints what each did as JSON.
// The Wine tests build it for Windows and run it with a system proxy set in Wine's registry: nothing
// here names a proxy, so a request the test's proxy sees came there by the registry alone.
//
//	netstandin WHEEL_URL SHA256 INDEX_PAGE_URL SOURCE_URL
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/sources"
)

type report struct {
	SystemProxy  *netproxy.System `json:"system_proxy"`
	FetchErr     string           `json:"fetch_err"`
	FetchBytes   int64            `json:"fetch_bytes"`
	FetchProxy   string           `json:"fetch_proxy"`
	IndexFiles   []string         `json:"index_files"`
	IndexErr     string           `json:"index_err"`
	ProbeProxy   string           `json:"probe_proxy"`
	ProbeWhy     string           `json:"probe_why"`
	ProbeAnswers bool             `json:"probe_answers"`
}

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: netstandin WHEEL_URL SHA256 INDEX_PAGE_URL SOURCE_URL")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep := report{SystemProxy: netproxy.ReadSystem()}

	dir, err := os.MkdirTemp("", "netstandin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	defer os.RemoveAll(dir)
	net := netproxy.ForPip("", nil) // the run's rules, as gpuwiz's own runs build them
	n := fetch.Network{Proxy: net}
	rep.FetchProxy = n.ProxyInUse(os.Args[1])
	res, err := fetch.Fetch(ctx, []fetch.File{{URL: os.Args[1], Name: "p-1.0-py3-none-any.whl", SHA256: os.Args[2]}}, fetch.Options{Dir: dir, Network: n, Retries: -1})
	if err != nil {
		rep.FetchErr = err.Error()
	}
	rep.FetchBytes = res.Fetched

	files, err := (&indexcheck.Fetcher{Timeout: 20 * time.Second, Client: net.Client()}).Files(ctx, os.Args[3])
	rep.IndexFiles = files
	if err != nil {
		rep.IndexErr = err.Error()
	}

	c, err := sources.Custom(os.Args[4])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	b := sources.Build{Project: "torch", Version: "2.8.0+cu126", Python: "3.12", GOOS: "windows", GOARCH: "amd64"}
	r := sources.Probe(ctx, []sources.Candidate{c}, b, sources.Options{Timeout: 20 * time.Second, Net: net})[0]
	rep.ProbeProxy, rep.ProbeWhy, rep.ProbeAnswers = r.Proxy, r.Why, r.Answers

	out, _ := json.Marshal(rep)
	fmt.Println(string(out))
}
