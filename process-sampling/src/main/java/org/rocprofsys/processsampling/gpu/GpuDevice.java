package org.rocprofsys.processsampling.gpu;

/**
 * One GPU a backend samples.
 *
 * @param index  the GPU's number as the user sees it: the number ROCPROFSYS_SAMPLING_GPUS selects
 *               and the track names carry (NVML's index for NVIDIA GPUs; for AMD GPUs their order
 *               in AMD-SMI or sysfs, after the NVIDIA GPUs of the machine if it has both)
 * @param name   the product name, e.g. "NVIDIA H100 80GB HBM3"
 * @param handle where the backend finds the device: "nvml:0", "amdsmi:1", or the sysfs device
 *               directory
 */
public record GpuDevice(int index, String name, String handle) {}
