package urls

import "testing"

// gpuReport is `gpuwiz gpu --json`'s answer for two cards: what every command's output goes through.
const gpuReport = `{
  "available": true,
  "backend": "nvml",
  "driver_version": "566.36",
  "cuda_max": "12.7",
  "nvml_version": "12.566.36",
  "message": "NVIDIA driver 566.36 (CUDA up to 12.7) with 2 GPUs: NVIDIA GeForce RTX 4090, NVIDIA GeForce GTX 1080",
  "os": "linux",
  "gpus": [
    {
      "index": 0,
      "name": "NVIDIA GeForce RTX 4090",
      "uuid": "GPU-8f6c2a52-2b7e-4b6a-9d0e-4090aaaa0001",
      "pci_bus_id": "00000000:01:00.0",
      "memory_total_mib": 24564,
      "memory_used_mib": 1843,
      "compute_capability": "8.9",
      "processes": [
        {
          "pid": 1234,
          "name": "C:\\Windows\\explorer.exe",
          "used_memory_mib": 512
        },
        {
          "pid": 4242,
          "name": "python.exe"
        }
      ]
    },
    {
      "index": 1,
      "name": "NVIDIA GeForce GTX 1080",
      "uuid": "GPU-1080bbbb-0000-4000-8000-108000000002",
      "pci_bus_id": "00000000:02:00.0",
      "memory_total_mib": 8192,
      "memory_used_mib": 300,
      "compute_capability": "6.1",
      "processes": [
        {
          "pid": 5555,
          "name": "trainer.exe",
          "used_memory_mib": 256
        }
      ]
    }
  ],
  "warnings": [
    "GPU 1 (NVIDIA GeForce GTX 1080, compute capability 6.1): recent builds (cu128 and newer, torch 2.15+) dropped this architecture; it needs torch 2.14 or older with cu126"
  ]
}
`

// BenchmarkRedactReport: Redact over a text with no secret and no '@' (the usual case).
func BenchmarkRedactReport(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if Redact(gpuReport) != gpuReport {
			b.Fatal("changed")
		}
	}
}
