//! Output files and directories, written whole or not at all (the crate's doc says how).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::interrupt::{self, Registration};
use crate::{describe, Error};

/// The directory an output goes into (`.` for a bare name) and its file name.
fn split_target(target: &Path) -> Result<(PathBuf, String), Error> {
    let name = match target.file_name() {
        Some(n) if !target.as_os_str().to_string_lossy().ends_with('/') => n,
        _ => {
            return Err(Error::Target {
                path: target.to_path_buf(),
                reason: "the output must end in a file or directory name (not `/`, `.` or `..`)"
                    .into(),
            })
        }
    };
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_string_lossy().into_owned()))
}

/// 16 random hex digits from the kernel (a time-based fallback would be guessable).
fn random_suffix() -> String {
    let mut bytes = [0u8; 8];
    // SAFETY: getrandom writes at most `bytes.len()` bytes into the buffer.
    let n = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if n != bytes.len() as isize {
        // Still unique and created with O_EXCL; only less unpredictable.
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        bytes = (t ^ (u64::from(std::process::id()) << 32)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates something new at a fresh random path (`path_for`) with `create`, which
/// must fail if the path exists; registered for removal on a signal from just before
/// it exists (a signal between the two would otherwise leave it). A name already
/// taken (never ours: 64 random bits) is left alone and another one drawn.
fn create_fresh<T>(
    path_for: impl Fn() -> PathBuf,
    directory: bool,
    parent: &Path,
    create: impl Fn(&Path) -> std::io::Result<T>,
) -> Result<(PathBuf, T, Registration), Error> {
    loop {
        let path = path_for();
        // Dropped on an error: forgotten, not removed.
        let registration = interrupt::register(&path, directory);
        match create(&path) {
            Ok(made) => return Ok((path, made, registration)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io("cannot write in", parent, e)),
        }
    }
}

/// `.NAME.RANDOM.tmp`, and the target's extension after it (`.plot.png.RANDOM.tmp.png`):
/// a tool that writes the temporary by name may choose its format by extension.
fn temp_name(name: &str) -> String {
    let ext = Path::new(name)
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    format!(".{name}.{}.tmp{ext}", random_suffix())
}

/// Err unless an output file may be written at `target`: nothing is there, or a
/// regular file with a write permission bit (owner, group or other) that this
/// process may write.
pub fn check_file_target(target: &Path) -> Result<(), Error> {
    split_target(target)?;
    let refuse = |what: &str| {
        Error::Target {
        path: target.to_path_buf(),
        reason: format!(
            "the target is {what}; an output file is written only as a new file or over a writable regular file"
        ),
    }
    };
    match fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io("cannot inspect", target, e)),
        Ok(meta) if !meta.file_type().is_file() => Err(refuse(describe(&meta))),
        Ok(meta) if meta.permissions().mode() & 0o222 == 0 || !may_write(target) => {
            Err(refuse("a read-only file"))
        }
        Ok(_) => Ok(()),
    }
}

fn may_write(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// Err unless an output directory may be written at `target`: nothing is there, or
/// an empty directory (not a link to one).
pub fn check_dir_target(target: &Path) -> Result<(), Error> {
    split_target(target)?;
    match fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io("cannot inspect", target, e)),
        Ok(meta) if !meta.is_dir() => Err(Error::Target {
            path: target.to_path_buf(),
            reason: format!(
                "the target is {}; an output directory is written only as a new directory or into an empty one",
                describe(&meta)
            ),
        }),
        Ok(_) => {
            let mut entries =
                fs::read_dir(target).map_err(|e| Error::io("cannot list", target, e))?;
            match entries.next() {
                None => Ok(()),
                Some(entry) => {
                    let entry = entry.map_err(|e| Error::io("cannot list", target, e))?;
                    Err(Error::Target {
                        path: target.to_path_buf(),
                        reason: format!(
                            "the directory is not empty (it holds {}); an output directory is written only as a new directory or into an empty one",
                            entry.file_name().to_string_lossy()
                        ),
                    })
                }
            }
        }
    }
}

fn sync_dir(dir: &Path) {
    // A directory's fsync makes the rename durable; some file systems refuse it.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// An output file being written: a fresh temporary beside the target until
/// [`OutputFile::commit`] renames it into place; dropped uncommitted, it is removed.
pub struct OutputFile {
    target: PathBuf,
    temp: PathBuf,
    file: File,
    registration: Option<Registration>,
}

impl OutputFile {
    /// Checks the target ([`check_file_target`]) and creates the temporary beside it.
    /// The target's directory must exist.
    pub fn create(target: &Path) -> Result<OutputFile, Error> {
        check_file_target(target)?;
        let (parent, name) = split_target(target)?;
        match fs::metadata(&parent) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Error::Target {
                    path: target.to_path_buf(),
                    reason: format!("{} is not a directory", parent.display()),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::Target {
                    path: target.to_path_buf(),
                    reason: format!("directory {} does not exist", parent.display()),
                })
            }
            Err(e) => return Err(Error::io("cannot inspect", &parent, e)),
        }
        let (temp, file, registration) = create_fresh(
            || parent.join(temp_name(&name)),
            false,
            &parent,
            |path| {
                OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(0o666)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                    .open(path)
            },
        )?;
        Ok(OutputFile {
            target: target.to_path_buf(),
            temp,
            file,
            registration: Some(registration),
        })
    }

    /// The temporary's path, for a tool that writes the file by name (it must write
    /// this very file, not replace it: the commit checks).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The target.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Writes all of `bytes` to the temporary.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.file
            .write_all(bytes)
            .map_err(|e| Error::io("cannot write", &self.target, e))
    }

    /// Syncs the temporary and renames it onto the target (which must still be
    /// absent or a writable regular file, whose permission bits it takes).
    pub fn commit(mut self) -> Result<(), Error> {
        let target = self.target.clone();
        self.file
            .flush()
            .and_then(|()| self.file.sync_all())
            .map_err(|e| Error::io("cannot write", &target, e))?;
        let ours = self
            .file
            .metadata()
            .map_err(|e| Error::io("cannot write", &target, e))?;
        match fs::symlink_metadata(&self.temp) {
            Ok(m) if m.file_type().is_file() && m.ino() == ours.ino() && m.dev() == ours.dev() => {}
            _ => {
                return Err(Error::Target {
                    path: self.temp.clone(),
                    reason: "the temporary file was replaced while it was written".into(),
                })
            }
        }
        let mut entries = interrupt::registry();
        check_file_target(&target)?;
        if let Ok(old) = fs::metadata(&target) {
            let _ = self.file.set_permissions(fs::Permissions::from_mode(
                old.permissions().mode() & 0o7777,
            ));
        }
        fs::rename(&self.temp, &target).map_err(|e| Error::io("cannot replace", &target, e))?;
        if let Some(r) = self.registration.take() {
            r.release_locked(&mut entries);
            std::mem::forget(r);
        }
        drop(entries);
        sync_dir(&split_target(&target)?.0);
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(r) = self.registration.take() {
            let mut entries = interrupt::registry();
            let _ = fs::remove_file(&self.temp);
            r.release_locked(&mut entries);
            drop(entries);
            std::mem::forget(r);
        }
    }
}

/// Writes `bytes` as the file `target`, whole or not at all.
pub fn write_file(target: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut out = OutputFile::create(target)?;
    out.write_all(bytes)?;
    out.commit()
}

/// One file of an output directory: its path inside the directory, its bytes, and
/// whether it is executable (mode 0755 rather than 0644, less the umask).
pub struct DirEntry<'a> {
    pub path: &'a Path,
    pub contents: &'a [u8],
    pub executable: bool,
}

/// An output directory being written: a fresh temporary directory beside the target
/// until [`OutputDir::commit`] renames it into place; dropped uncommitted, it is
/// removed with everything in it.
pub struct OutputDir {
    target: PathBuf,
    temp: PathBuf,
    registration: Option<Registration>,
}

impl OutputDir {
    /// Checks the target ([`check_dir_target`]), creates its missing parent
    /// directories, and creates the temporary directory beside it.
    pub fn create(target: &Path) -> Result<OutputDir, Error> {
        check_dir_target(target)?;
        let (parent, name) = split_target(target)?;
        fs::create_dir_all(&parent).map_err(|e| Error::io("cannot create", &parent, e))?;
        let (temp, (), registration) = create_fresh(
            || parent.join(temp_name(&name)),
            true,
            &parent,
            |path| fs::create_dir(path),
        )?;
        Ok(OutputDir {
            target: target.to_path_buf(),
            temp,
            registration: Some(registration),
        })
    }

    /// The temporary directory, for tools that write into it by name.
    pub fn path(&self) -> &Path {
        &self.temp
    }

    /// The target.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Writes one file (its parent directories inside the output created), synced.
    pub fn write(&self, entry: &DirEntry) -> Result<(), Error> {
        let relative = entry.path;
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(Error::Target {
                path: self.target.join(relative),
                reason:
                    "a file of an output directory must be named by a relative path without `..`"
                        .into(),
            });
        }
        let path = self.temp.join(relative);
        let shown = self.target.join(relative);
        if let Some(d) = path.parent() {
            fs::create_dir_all(d).map_err(|e| Error::io("cannot create", &shown, e))?;
        }
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if entry.executable { 0o777 } else { 0o666 })
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&path)
            .map_err(|e| Error::io("cannot write", &shown, e))?;
        file.write_all(entry.contents)
            .and_then(|()| file.sync_all())
            .map_err(|e| Error::io("cannot write", &shown, e))
    }

    /// Syncs the directory and renames it onto the target (which must still be
    /// absent or an empty directory: rename(2) refuses a non-empty one).
    pub fn commit(mut self) -> Result<(), Error> {
        sync_dir(&self.temp);
        let mut entries = interrupt::registry();
        check_dir_target(&self.target)?;
        fs::rename(&self.temp, &self.target).map_err(|e| {
            if check_dir_target(&self.target).is_err() {
                Error::Target {
                    path: self.target.clone(),
                    reason: "something was put there while the output was being written; nothing was replaced".into(),
                }
            } else {
                Error::io("cannot create", &self.target, e)
            }
        })?;
        if let Some(r) = self.registration.take() {
            r.release_locked(&mut entries);
            std::mem::forget(r);
        }
        drop(entries);
        sync_dir(&split_target(&self.target)?.0);
        Ok(())
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if let Some(r) = self.registration.take() {
            let mut entries = interrupt::registry();
            let _ = fs::remove_dir_all(&self.temp);
            r.release_locked(&mut entries);
            drop(entries);
            std::mem::forget(r);
        }
    }
}

/// Writes the directory `target` holding exactly `files`, whole or not at all.
pub fn write_dir(target: &Path, files: &[DirEntry]) -> Result<(), Error> {
    let out = OutputDir::create(target)?;
    for f in files {
        out.write(f)?;
    }
    out.commit()
}

/// A private working directory in the system's temporary directory (a tool's
/// scratch space: unpacked bitstreams and the like), created fresh under an
/// unpredictable name and removed with its contents when dropped or on a signal.
pub struct ScratchDir {
    path: PathBuf,
    _registration: Registration,
}

impl ScratchDir {
    /// `$TMPDIR/bloom-TAG-RANDOM`, mode 0700.
    pub fn create(tag: &str) -> Result<ScratchDir, Error> {
        use std::os::unix::fs::DirBuilderExt;
        let base = std::env::temp_dir();
        let (path, (), registration) = create_fresh(
            || base.join(format!("bloom-{tag}-{}", random_suffix())),
            true,
            &base,
            |path| fs::DirBuilder::new().mode(0o700).create(path),
        )?;
        Ok(ScratchDir {
            path,
            _registration: registration,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
