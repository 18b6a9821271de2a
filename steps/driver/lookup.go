package driver

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Lookup asks NVIDIA for the newest driver of one card.
type Lookup interface {
	Find(ctx context.Context, q Query) (Release, error)
}

// Query is one card's question to the lookup service.
type Query struct {
	Name   string // the card's name as the driver reports it
	Form   Form
	Family Family // GeForce or Studio (the service's Game Ready and Studio lists)
	OSID   int
	Branch string // newest branch the card can take ("" any)
}

// Errors of a lookup. ErrUnreachable means the service did not answer (no network, a proxy that
// refuses): the caller uses the embedded table. The others are answers: the service does not know
// the card, or lists no driver for it. Front ends word them by kind (Resolve's reasons), never by
// this text.
//
//i18n:raw sentinel errors for logs and tests; the user reads the reason codes worded from the catalog
var (
	ErrUnreachable = errors.New("driver lookup: service unreachable")
	ErrNoProduct   = errors.New("driver lookup: the service does not list this card")
	ErrNoDriver    = errors.New("driver lookup: the service lists no driver for this card")
)

// Service is NVIDIA's public lookup service, the one behind its driver download form:
//
//   - the product list, https://www.nvidia.com/Download/API/lookupValueSearch.aspx?TypeID=3, XML
//     <LookupValueSearch><LookupValues><LookupValue><Name>…</Name><Value>pfid</Value>… (read so by
//     ZenitH-AT/nvidia-data get-nvidia-data.py and zlicdt/nvwupd Core/DriverFetcher.cs);
//   - the driver search, https://gfwsl.geforce.com/services_toolkit/services/com/nvidia/services/
//     AjaxDriverService.php?func=DriverManualLookup&pfid=…&osID=…&dch=1, JSON
//     {"Success":"1","IDS":[{"downloadInfo":{"Version","DownloadURL","Name","IsWHQL","IsBeta",
//     "ReleaseDateTime","DownloadURLFileSize",…}}]} (ZenitH-AT/nvidia-update nvidia-update.ps1 and
//     its README; Name is URL-encoded, flags are "1"/"0" strings, Success is "1" or 1).
//
// upCRD=1 asks for the Studio list (Creator Ready Drivers), 0 for Game Ready.
type Service struct {
	Client *http.Client
	// Products and Drivers are the two endpoints; empty: NVIDIA's. Tests point them at a loopback
	// stand-in.
	Products, Drivers string
}

const (
	productsURL = "https://www.nvidia.com/Download/API/lookupValueSearch.aspx?TypeID=3"
	driversURL  = "https://gfwsl.geforce.com/services_toolkit/services/com/nvidia/services/AjaxDriverService.php"
)

type lookupValues struct {
	Values []struct {
		ParentID string `xml:"ParentID,attr"`
		Name     string `xml:"Name"`
		Value    string `xml:"Value"`
	} `xml:"LookupValues>LookupValue"`
}

type ajaxAnswer struct {
	Success flag `json:"Success"`
	IDS     []struct {
		DownloadInfo struct {
			Version         string `json:"Version"`
			DownloadURL     string `json:"DownloadURL"`
			Name            string `json:"Name"`
			IsWHQL          flag   `json:"IsWHQL"`
			IsBeta          flag   `json:"IsBeta"`
			ReleaseDateTime string `json:"ReleaseDateTime"`
		} `json:"downloadInfo"`
	} `json:"IDS"`
}

// flag is the service's boolean: "1" or 1 (both seen in its answers).
type flag bool

func (f *flag) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	*f = flag(s == "1" || strings.EqualFold(s, "true"))
	return nil
}

// Find asks for the product id of q.Name, then for its newest WHQL driver of the family within the
// branch limit.
func (s Service) Find(ctx context.Context, q Query) (Release, error) {
	pfid, err := s.product(ctx, q.Name)
	if err != nil {
		return Release{}, err
	}
	v := url.Values{}
	v.Set("func", "DriverManualLookup")
	v.Set("pfid", pfid)
	v.Set("osID", strconv.Itoa(q.OSID))
	v.Set("languageCode", "1033")
	v.Set("beta", "0")
	v.Set("isWHQL", "1")
	v.Set("dltype", "-1")
	v.Set("dch", "1")
	v.Set("upCRD", "0")
	if q.Family == Studio {
		v.Set("upCRD", "1")
	}
	v.Set("sort1", "0")
	v.Set("numberOfResults", "20")
	body, err := s.get(ctx, or(s.Drivers, driversURL)+"?"+v.Encode())
	if err != nil {
		return Release{}, err
	}
	var a ajaxAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return Release{}, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	if !a.Success {
		return Release{}, ErrNoDriver
	}
	for _, id := range a.IDS {
		d := id.DownloadInfo
		name, _ := url.QueryUnescape(d.Name)
		studio := strings.Contains(strings.ToLower(name), "studio")
		if !bool(d.IsWHQL) || bool(d.IsBeta) || studio != (q.Family == Studio) || !WithinBranch(d.Version, q.Branch) || d.DownloadURL == "" {
			continue
		}
		u, err := url.Parse(d.DownloadURL)
		if err != nil || u.Scheme != "https" && u.Scheme != "http" {
			continue
		}
		return Release{
			Branch: BranchOf(d.Version), Family: q.Family, Form: q.Form, OS: "windows",
			Version: d.Version, Released: d.ReleaseDateTime, File: path.Base(u.Path), URL: d.DownloadURL,
			Source: name,
		}, nil
	}
	return Release{}, ErrNoDriver
}

func (s Service) product(ctx context.Context, name string) (string, error) {
	body, err := s.get(ctx, or(s.Products, productsURL))
	if err != nil {
		return "", err
	}
	var lv lookupValues
	if err := xml.Unmarshal(body, &lv); err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	want := ProductName(name)
	for _, v := range lv.Values {
		if strings.EqualFold(ProductName(v.Name), want) && v.Value != "" {
			return v.Value, nil
		}
	}
	return "", ErrNoProduct
}

var memorySuffix = regexp.MustCompile(`(?i)\s+(\d+\s*GB|\(OEM\)|\(\w+\))\s*$`)

// ProductName is a card's name as NVIDIA's product list spells it: no "NVIDIA " in front, no memory
// size or "(OEM)" behind ("NVIDIA GeForce GTX 1060 6GB" → "GeForce GTX 1060"), as
// ZenitH-AT/nvidia-data get-nvidia-data.py cleans the names on both sides.
func ProductName(name string) string {
	n := strings.TrimSpace(name)
	n = strings.TrimSpace(strings.TrimPrefix(n, "NVIDIA "))
	n, _, _ = strings.Cut(n, "/")
	n = strings.TrimSpace(n)
	for {
		m := memorySuffix.ReplaceAllString(n, "")
		if m == n {
			break
		}
		n = m
	}
	return n
}

func (s Service) get(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s", ErrUnreachable, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	return b, nil
}

func or(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Resolve asks l for every choice that names a GeForce or Studio driver on Windows and takes its
// answer when there is one; a choice keeps the table's driver when the service cannot be reached
// or does not know the card, with the reason added.
func Resolve(ctx context.Context, l Lookup, choices []Choice, req Request) []Choice {
	out := make([]Choice, len(choices))
	for i, ch := range choices {
		out[i] = ch
		if l == nil || req.OS != "windows" || (ch.Family != GeForce && ch.Family != Studio) {
			continue
		}
		r, err := l.Find(ctx, Query{Name: ch.Card.Name, Form: ch.Form, Family: ch.Family, OSID: ch.OSID, Branch: ch.Branch})
		switch {
		case err == nil:
			r.Form = ch.Form
			c := ch
			c.Driver, c.From = &r, "lookup"
			c.Why = dropCodes(c.Why, "no_studio_offline", "none_known", "missing", "below_channel", "branch_below_channel", "newer", "up_to_date")
			c.Status, c.Why = status(req, c)
			out[i] = c
		case errors.Is(err, ErrUnreachable):
			out[i].Why = append(out[i].Why, reason("lookup_unreachable"))
		case errors.Is(err, ErrNoProduct):
			out[i].Why = append(out[i].Why, reason("lookup_no_product", "Name", ProductName(ch.Card.Name)))
		default:
			out[i].Why = append(out[i].Why, reason("lookup_no_driver"))
		}
	}
	return out
}

func dropCodes(rs []Reason, codes ...string) []Reason {
	var out []Reason
	for _, r := range rs {
		drop := false
		for _, c := range codes {
			drop = drop || r.Code == c
		}
		if !drop {
			out = append(out, r)
		}
	}
	return out
}
