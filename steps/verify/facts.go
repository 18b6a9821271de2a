package verify

// facts is what the verify scripts print.
type facts struct {
	Framework        string   `json:"framework"`
	Imported         bool     `json:"imported"`
	ImportError      string   `json:"import_error"`
	Error            string   `json:"error"`
	Version          string   `json:"version"`
	CUDA             string   `json:"cuda"`
	CuDNN            string   `json:"cudnn"`
	CuDNNError       string   `json:"cudnn_error"`
	CompiledWithCUDA bool     `json:"compiled_with_cuda"`
	ArchList         []string `json:"arch_list"`
	ArchError        string   `json:"arch_error"`
	CUDAAvailable    bool     `json:"cuda_available"`
	CUDAError        string   `json:"cuda_error"`
	CUDAWarnings     []string `json:"cuda_warnings"`
	Devices          []Device `json:"devices"`
	DeviceError      string   `json:"device_error"`
	RunCheck         *struct {
		OK     bool   `json:"ok"`
		Output string `json:"output"`
		Error  string `json:"error"`
	} `json:"run_check"`
	Matmul *struct {
		N        int      `json:"n"`
		RelError *float64 `json:"rel_error"`
		Error    string   `json:"error"`
	} `json:"matmul"`
}
