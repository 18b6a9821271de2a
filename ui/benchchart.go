package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/charmbracelet/lipgloss"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// chartSpec is one live chart: what it reads from a sample, its unit and its fixed range (max 0:
// from the readings).
type chartSpec struct {
	label func() string // in the current language
	unit  string
	max   float64
	value func(app.GPUSample) float64
}

var benchCharts = []chartSpec{
	{func() string { return i18n.T("ui.bench.chart_busy") }, "%", 100, func(s app.GPUSample) float64 { return s.UtilizationPct }},
	{func() string { return i18n.T("ui.bench.chart_memory") }, "MiB", 0, func(s app.GPUSample) float64 { return float64(s.MemoryUsedMiB) }},
	{func() string { return i18n.T("ui.bench.chart_temperature") }, "°C", 100, func(s app.GPUSample) float64 { return s.TemperatureC }},
	{func() string { return i18n.T("ui.bench.chart_power") }, "W", 0, func(s app.GPUSample) float64 { return s.PowerW }},
	{func() string { return i18n.T("ui.bench.chart_clock") }, "MHz", 0, func(s app.GPUSample) float64 { return s.SMClockMHz }},
}

// chartMinSpan is the shortest time axis: the first seconds of a run do not fill the whole width.
const chartMinSpan = 10.0

// benchChart is one quantity over the whole run: a y axis from 0 to its top, marked in its unit,
// and a time axis in seconds since the first reading. ntcharts' linechart draws the axes and
// their labels; each column of the graph shows the highest reading in its slice of time, so a
// short burst stays visible however long the run.
type benchChart struct {
	spec  chartSpec
	ascii bool
	lc    linechart.Model
	at    []float64 // seconds since the first reading
	vals  []float64
	top   float64 // the y axis's top: the spec's max, else a round number above the highest reading
}

func newBenchChart(spec chartSpec, ascii bool, w, h int) *benchChart {
	c := &benchChart{spec: spec, ascii: ascii, top: spec.max}
	if c.top == 0 {
		c.top = 1
	}
	c.lc = linechart.New(max(w, 4), max(h, 3), 0, chartMinSpan, 0, c.top,
		linechart.WithXYSteps(chartXStep, 1),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return fmt.Sprintf("%.0fs", v) }),
		linechart.WithYLabelFormatter(c.yLabel))
	c.draw()
	return c
}

// chartXStep is the columns between two time labels.
const chartXStep = 7

// yLabel marks the axis's bottom and top only: a small chart has no room for more, and the top
// with its unit is what makes the height readable.
func (c *benchChart) yLabel(_ int, v float64) string {
	switch {
	case v <= 0:
		return "0"
	case v >= c.top-c.top/1e6:
		return compactNumber(c.top) + c.unit()
	}
	return ""
}

func (c *benchChart) unit() string {
	if c.ascii {
		return strings.ReplaceAll(c.spec.unit, "°", "")
	}
	return c.spec.unit
}

// compactNumber writes n in at most 4 digits: 143771 is "144k".
func compactNumber(n float64) string {
	if n >= 10000 {
		return fmt.Sprintf("%.0fk", n/1000)
	}
	return fmt.Sprintf("%.0f", n)
}

// niceTop is a round number at or above v: 616 W draws against 800, 1980 MHz against 2000.
func niceTop(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// add records one reading at seconds since the first; memTotal is the card's memory (the memory
// chart's top).
func (c *benchChart) add(at, v float64, memTotal uint64) {
	c.at, c.vals = append(c.at, at), append(c.vals, v)
	if c.spec.max == 0 {
		top := c.top
		switch {
		case c.spec.unit == "MiB" && memTotal > 0:
			top = float64(memTotal)
		case v > top || top == 1:
			top = niceTop(v)
		}
		c.top = max(top, 1)
	}
	c.draw()
}

func (c *benchChart) resize(w, h int) {
	c.lc.Resize(max(w, 4), max(h, 3))
	c.draw()
}

// draw redraws the canvas from the readings (in Update: View only shows it).
func (c *benchChart) draw() {
	span := chartMinSpan
	if n := len(c.at); n > 0 {
		span = max(span, c.at[n-1])
	}
	c.lc.SetXYRange(0, span, 0, c.top)
	c.lc.SetViewXYRange(0, span, 0, c.top)
	c.lc.Clear()
	c.lc.DrawXYAxisAndLabel()
	if len(c.at) == 0 {
		return
	}
	origin := c.lc.Origin()
	cols := c.lc.Canvas.Width() - origin.X // the y axis's column is time 0
	ys := make([]int, 0, cols)
	i := 0
	for col := 0; col < cols && i < len(c.at); col++ {
		end := span * float64(col+1) / float64(cols)
		if col == cols-1 {
			end = math.Inf(1)
		}
		v := math.NaN()
		for ; i < len(c.at) && c.at[i] < end; i++ {
			if math.IsNaN(v) || c.vals[i] > v {
				v = c.vals[i]
			}
		}
		if math.IsNaN(v) { // no reading in this slice: the line carries on
			if len(ys) == 0 {
				continue
			}
			ys = append(ys, ys[len(ys)-1])
			continue
		}
		h := int(math.Round(min(max(v, 0), c.top) / c.top * float64(c.lc.GraphHeight())))
		ys = append(ys, canvas.CanvasYCoordinate(origin.Y, h))
	}
	graph.DrawLineSequence(&c.lc.Canvas, true, origin.X, ys, runes.ArcLineStyle, lipgloss.NewStyle())
}

// view is the chart's lines, in ASCII when asked.
func (c *benchChart) view() string {
	if c.ascii {
		return asciiLines.Replace(c.lc.View())
	}
	return c.lc.View()
}

// asciiLines maps the charts' line runes to ASCII for --ascii consoles.
var asciiLines = strings.NewReplacer("─", "-", "│", "|", "╭", ".", "╮", ".", "╰", "'", "╯", "'",
	"┌", ".", "┐", ".", "└", "'", "┘", "'", "┼", "+", "├", "+", "┤", "+", "┬", "+", "┴", "+")
