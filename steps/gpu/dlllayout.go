package gpu

// C layouts of the nvml.h structs the Windows backend reads (x86-64). No build tag: the sizes are
// checked by tests on Linux with unsafe.Sizeof, and the same structs are decoded there from a fake table.

// nvmlMemory is nvmlMemory_t (24 bytes): all in bytes.
type nvmlMemory struct {
	Total, Free, Used uint64
}

// nvmlUtilization is nvmlUtilization_t (8 bytes): percent over the last sample period.
type nvmlUtilization struct {
	GPU, Memory uint32
}

// nvmlProcessInfo is nvmlProcessInfo_t as filled by the _v2 and _v3 process calls (24 bytes).
type nvmlProcessInfo struct {
	PID               uint32
	UsedGPUMemory     uint64 // nvmlValueNotAvailable under WDDM
	GPUInstanceID     uint32
	ComputeInstanceID uint32
}

// nvmlPCIInfo is nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v2/_v3 (68 bytes).
type nvmlPCIInfo struct {
	BusIDLegacy    [16]byte
	Domain         uint32
	Bus            uint32
	Device         uint32
	PCIDeviceID    uint32
	PCISubSystemID uint32
	BusID          [32]byte
}

const (
	nvmlValueNotAvailable = ^uint64(0) // NVML_VALUE_NOT_AVAILABLE, (unsigned long long)-1

	nvmlSuccess          = 0
	nvmlInsufficientSize = 7
	nvmlTemperatureGPU   = 0 // NVML_TEMPERATURE_GPU
	nvmlClockSM          = 1 // NVML_CLOCK_SM

	nvmlNameBufferSize        = 96  // NVML_DEVICE_NAME_V2_BUFFER_SIZE
	nvmlUUIDBufferSize        = 96  // NVML_DEVICE_UUID_V2_BUFFER_SIZE
	nvmlVersionBufferSize     = 80  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE
	nvmlProcessNameBufferSize = 256 // a full path on Windows
)

// nvmlReturnNames are nvmlReturn_t's names, for messages.
var nvmlReturnNames = map[uintptr]string{
	1: "NVML_ERROR_UNINITIALIZED", 2: "NVML_ERROR_INVALID_ARGUMENT", 3: "NVML_ERROR_NOT_SUPPORTED",
	4: "NVML_ERROR_NO_PERMISSION", 5: "NVML_ERROR_ALREADY_INITIALIZED", 6: "NVML_ERROR_NOT_FOUND",
	7: "NVML_ERROR_INSUFFICIENT_SIZE", 8: "NVML_ERROR_INSUFFICIENT_POWER", 9: "NVML_ERROR_DRIVER_NOT_LOADED",
	10: "NVML_ERROR_TIMEOUT", 11: "NVML_ERROR_IRQ_ISSUE", 12: "NVML_ERROR_LIBRARY_NOT_FOUND",
	13: "NVML_ERROR_FUNCTION_NOT_FOUND", 14: "NVML_ERROR_CORRUPTED_INFOROM", 15: "NVML_ERROR_GPU_IS_LOST",
	16: "NVML_ERROR_RESET_REQUIRED", 17: "NVML_ERROR_OPERATING_SYSTEM", 18: "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
	19: "NVML_ERROR_IN_USE", 20: "NVML_ERROR_MEMORY", 21: "NVML_ERROR_NO_DATA", 999: "NVML_ERROR_UNKNOWN",
}

// cString is a NUL-terminated C string in a fixed buffer.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// usedBytes maps NVML_VALUE_NOT_AVAILABLE to nil.
func usedBytes(v uint64) *uint64 {
	if v == nvmlValueNotAvailable {
		return nil
	}
	return &v
}
