package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUDA arrays, texture objects and surface objects run by `barrierscope exec` (textures.cu: its
 * own host reference decides, bit for bit, including the 1.8 fixed-point weights of linear
 * filtering). Skipped, saying why, where nvcc or gcc is missing.
 */
class ExecTexturesTest {
    @TempDir
    static Path bundles;

    static ExecProgramsTest.Ran exec(String name) throws Exception {
        return ExecProgramsTest.exec(CudaPrograms.build(name), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
    }

    @Test
    void arraysTexturesAndSurfacesMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("textures");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS textures"), r.all());
        assertTrue(r.all().contains("cudaMemcpy2DFromArray: the copy reaches outside the array (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void layeredArraysTexturesAndSurfacesMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("layered");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS layered"), r.all());
        assertTrue(r.all().contains("cudaMalloc3DArray: a layered array needs a width and a depth (the number of layers) (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void formattedSurfaceStoresReductionsAndQueriesMatchTheHostReferenceBitForBit() throws Exception {
        // Inline PTX (nvcc emits no sust.p, sured or suq from CUDA C++): half and uchar4 formats, .clamp/.zero, atomics.
        ExecProgramsTest.Ran r = exec("surface_formats");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS surface_formats"), r.all());
    }

    @Test
    void cubemapArraysAndTheirTexturesMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("cube");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS cube"), r.all());
        assertTrue(r.all().contains("cudaMalloc3DArray: a cubemap's depth must be 6 (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void mipmappedArraysAndTheirLevelOfDetailFetchesMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("mipmap");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS mipmap"), r.all());
        assertTrue(r.all().contains("cudaGetMipmappedArrayLevel: a level not below the array's number of levels (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.all().contains("cudaFreeArray: a level of a mipmapped array (cudaFreeMipmappedArray frees it) (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void aLayeredGatherAndTheArraySizeQueryMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("layered_gather");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS layered_gather"), r.all());
    }

    @Test
    void oneAndThreeDimensionalMipmappedArraysMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("mipmap_1d_3d");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS mipmap_1d_3d"), r.all());
    }

    @Test
    void layeredAndCubemapMipmappedArraysAndSeamlessFilteringMatchTheHostReferenceBitForBit() throws Exception {
        ExecProgramsTest.Ran r = exec("mipmap_layered_cube");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS mipmap_layered_cube"), r.all());
        assertTrue(r.all().contains("cudaCreateTextureObject: pTexDesc->maxAnisotropy is 4: anisotropic filtering"), r.all());
        assertTrue(r.all().contains("cudaCreateTextureObject: seamlessCubemap needs an array or mipmapped array made with cudaArrayCubemap"
                + " (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void aCubeGatherRunsButNoCubemapCudaMakesAllowsItSoItIsTextureMisuse() throws Exception {
        ExecProgramsTest.Ran r = exec("cube_gather");
        assertTrue(r.program().contains("PASS cube_gather"), r.all());
        assertTrue(r.all().contains("[texture-misuse]") && r.all().contains("so no cubemap can be gathered from"), r.all());
        assertEquals(4, r.code(), "a diagnosed launch: exit code 4\n" + r.all());
    }

    @Test
    void aMipmappedGatherReadsLevelZeroAndGatherFlagsOnArraysThatAreNot2dAreInvalidValuesAsDocumented() throws Exception {
        ExecProgramsTest.Ran r = exec("mipmap_gather");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS mipmap_gather"), r.all());
        assertTrue(r.all().contains("cudaMalloc3DArray: cudaArrayCubemap with cudaArrayTextureGather: texture gather can only be performed"
                + " on 2D CUDA arrays (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.all().contains("cudaMallocMipmappedArray: cudaArrayTextureGather on a mipmapped array that is not 2D"), r.all());
    }
}
