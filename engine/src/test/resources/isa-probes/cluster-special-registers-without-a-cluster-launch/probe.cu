// cluster-special-registers-without-a-cluster-launch
// Chapter 10 (special registers): a launch without clusters runs each CTA as a cluster of one: %is_explicit_cluster false, %cluster_nctarank 1, %clusterid = %ctaid.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    unsigned v[7];
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[0]));
    asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[1]));
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[2]));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[3]));
    asm volatile("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(v[4]));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v[5]));
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v[6]));
    for (int i = 0; i < 7; i++) out[blockIdx.x * 8 + i] = v[i];
}
