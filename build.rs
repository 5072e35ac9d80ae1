//! Compiles `proto/npuzzle.proto` with protox (no system `protoc`): writes the descriptor set,
//! with comments, into `OUT_DIR` for server reflection, and generates the tonic code from it.
//! Only the `service` feature has a wire: without it there is nothing to compile.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    #[cfg(feature = "service")]
    {
        let mut compiler = protox::Compiler::new(["proto"])?;
        compiler.include_source_info(true).include_imports(true).open_file("npuzzle.proto")?;
        let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
        std::fs::write(out_dir.join("npuzzle_descriptor.bin"), compiler.encode_file_descriptor_set())?;
        tonic_prost_build::configure().compile_fds(compiler.file_descriptor_set())?;
    }
    Ok(())
}
