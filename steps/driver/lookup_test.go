package driver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/nvlookup"
)

func standIn(t *testing.T) (*nvlookup.Server, Service) {
	t.Helper()
	s := nvlookup.Serve(t, []nvlookup.Product{
		{Series: "101", Name: "GeForce GTX 1060", PFID: "815"},
		{Series: "129", Name: "GeForce RTX 4060 Laptop GPU", PFID: "1007"},
		{Series: "129", Name: "GeForce RTX 4060", PFID: "992"},
	}, map[string][]nvlookup.Driver{
		// A GTX 1060 is offered a 590 driver by a service that has it wrong: the branch limit holds.
		"815": {
			{Version: "591.44", Name: "GeForce Game Ready Driver", WHQL: true, File: "591.44-desktop-win10-win11-64bit-international-dch-whql.exe"},
			{Version: "581.99", Name: "GeForce Game Ready Driver", Beta: true, File: "581.99-desktop-win10-win11-64bit-international-dch-whql.exe"},
			{Version: "581.94", Name: "GeForce Game Ready Driver", WHQL: true, File: "581.94-desktop-win10-win11-64bit-international-dch-whql.exe"},
			{Version: "581.42", Name: "NVIDIA Studio Driver", WHQL: true, Studio: true, File: "581.42-desktop-win10-win11-64bit-international-dch-whql.exe"},
		},
		"1007": {{Version: "612.10", Name: "GeForce Game Ready Driver", WHQL: true, Released: "Tue Jun 16, 2026", File: "612.10-notebook-win10-win11-64bit-international-dch-whql.exe"}},
	})
	return s, Service{Client: s.Client(), Products: s.ProductsURL(), Drivers: s.DriversURL()}
}

func TestLookupAnswersInTheServicesShapes(t *testing.T) {
	_, svc := standIn(t)
	ctx := context.Background()
	r, err := svc.Find(ctx, Query{Name: "NVIDIA GeForce GTX 1060 6GB", Form: Desktop, Family: GeForce, OSID: 57, Branch: "580"})
	if err != nil || r.Version != "581.94" || r.File != "581.94-desktop-win10-win11-64bit-international-dch-whql.exe" || r.Branch != "580" {
		t.Errorf("GTX 1060: %+v %v (want the newest WHQL, non-beta 580-branch driver)", r, err)
	}
	if r.Source != "GeForce Game Ready Driver" {
		t.Errorf("the service's URL-encoded name is not decoded: %q", r.Source)
	}
	st, err := svc.Find(ctx, Query{Name: "NVIDIA GeForce GTX 1060 6GB", Form: Desktop, Family: Studio, OSID: 135, Branch: "580"})
	if err != nil || st.Version != "581.42" {
		t.Errorf("Studio: %+v %v", st, err)
	}
	nb, err := svc.Find(ctx, Query{Name: "NVIDIA GeForce RTX 4060 Laptop GPU", Form: Notebook, Family: GeForce, OSID: 135})
	if err != nil || !strings.Contains(nb.File, "-notebook-") || nb.Version != "612.10" || nb.Released != "Tue Jun 16, 2026" {
		t.Errorf("RTX 4060 Laptop GPU: %+v %v", nb, err)
	}
	if _, err := svc.Find(ctx, Query{Name: "NVIDIA GeForce RTX 9090", Family: GeForce, OSID: 57}); !errors.Is(err, ErrNoProduct) {
		t.Errorf("unknown card: %v, want ErrNoProduct", err)
	}
	if _, err := svc.Find(ctx, Query{Name: "NVIDIA GeForce RTX 4060", Family: GeForce, OSID: 57}); !errors.Is(err, ErrNoDriver) {
		t.Errorf("card without drivers: %v, want ErrNoDriver", err)
	}
}

// With the service unreachable (a closed loopback port), the choice keeps the embedded table's
// driver and says the lookup could not be reached; with it reachable the service's newer answer wins.
func TestResolveFallsBackToTheTable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	off := Service{Client: &http.Client{}, Products: dead + "/Download/API/lookupValueSearch.aspx?TypeID=3", Drivers: dead + "/x"}
	req := Request{Cards: []Card{{Name: "NVIDIA GeForce GTX 1060 6GB", ComputeCapability: "6.1"}, {Name: "NVIDIA GeForce RTX 4060 Laptop GPU", ComputeCapability: "8.9"}}, OS: "windows", Current: "456.71"}
	tb := table(t)
	got := Resolve(context.Background(), off, Choose(req, tb), req)
	for _, c := range got {
		if c.From != "table" || c.Driver == nil || !strings.Contains(codes(c.Why), "lookup_unreachable") {
			t.Errorf("%s offline: from %s driver %+v why %s", c.Card.Name, c.From, c.Driver, codes(c.Why))
		}
	}
	if BranchOf(got[0].Driver.Version) != "580" || !strings.Contains(got[1].Driver.File, "-notebook-") {
		t.Errorf("offline choices: %+v / %+v", got[0].Driver, got[1].Driver)
	}
	_, on := standIn(t)
	got = Resolve(context.Background(), on, Choose(req, tb), req)
	if got[0].From != "lookup" || got[0].Driver.Version != "581.94" || got[0].Status != StatusUpdate {
		t.Errorf("GTX 1060 online: %+v %s %s", got[0].Driver, got[0].From, got[0].Status)
	}
	if got[1].From != "lookup" || got[1].Driver.Version != "612.10" || got[1].Driver.Form != Notebook {
		t.Errorf("RTX 4060 Laptop online: %+v %s", got[1].Driver, got[1].From)
	}
}

func TestProductName(t *testing.T) {
	for in, want := range map[string]string{
		"NVIDIA GeForce GTX 1060 6GB":        "GeForce GTX 1060",
		"NVIDIA GeForce RTX 4060 Laptop GPU": "GeForce RTX 4060 Laptop GPU",
		"GeForce GTX 760 Ti (OEM)":           "GeForce GTX 760 Ti",
		"GeForce 7050 / NVIDIA nForce 610i":  "GeForce 7050",
	} {
		if got := ProductName(in); got != want {
			t.Errorf("ProductName(%q) = %q, want %q", in, got, want)
		}
	}
}
