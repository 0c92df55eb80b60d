package org.rocprofsys.instrument.rewrite;

import static org.rocprofsys.elf.ElfConstants.EHDR_SIZE;
import static org.rocprofsys.elf.ElfConstants.EM_X86_64;
import static org.rocprofsys.elf.ElfConstants.ET_DYN;
import static org.rocprofsys.elf.ElfConstants.ET_EXEC;
import static org.rocprofsys.elf.ElfConstants.PHDR_SIZE;
import static org.rocprofsys.elf.ElfConstants.SHDR_SIZE;
import static org.rocprofsys.elf.ElfConstants.SHN_UNDEF;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfFormatException;
import org.rocprofsys.elf.ProgramHeader;
import org.rocprofsys.elf.SectionHeader;

/**
 * The parts of an ELF64 little-endian x86-64 file the rewriter changes: the file header, program
 * headers and section headers, kept as raw mutable records so they can be written back. The
 * header checks here are the rewriter's own (what it can write back, in its words); the tables
 * and everything else are read by the elf module's {@link ElfFile}.
 */
final class ElfHeaders {
    /** One program header (Elf64_Phdr). */
    static final class Phdr {
        int type;
        int flags;
        long offset;
        long vaddr;
        long paddr;
        long filesz;
        long memsz;
        long align;

        Phdr(int type, int flags, long offset, long vaddr, long paddr, long filesz, long memsz, long align) {
            this.type = type;
            this.flags = flags;
            this.offset = offset;
            this.vaddr = vaddr;
            this.paddr = paddr;
            this.filesz = filesz;
            this.memsz = memsz;
            this.align = align;
        }

        void write(ByteBuffer b) {
            b.putInt(type)
                    .putInt(flags)
                    .putLong(offset)
                    .putLong(vaddr)
                    .putLong(paddr)
                    .putLong(filesz)
                    .putLong(memsz)
                    .putLong(align);
        }
    }

    /** One section header (Elf64_Shdr). */
    static final class Shdr {
        int name;
        int type;
        long flags;
        long addr;
        long offset;
        long size;
        int link;
        int info;
        long addralign;
        long entsize;

        Shdr(
                int name,
                int type,
                long flags,
                long addr,
                long offset,
                long size,
                int link,
                int info,
                long addralign,
                long entsize) {
            this.name = name;
            this.type = type;
            this.flags = flags;
            this.addr = addr;
            this.offset = offset;
            this.size = size;
            this.link = link;
            this.info = info;
            this.addralign = addralign;
            this.entsize = entsize;
        }

        void write(ByteBuffer b) {
            b.putInt(name)
                    .putInt(type)
                    .putLong(flags)
                    .putLong(addr)
                    .putLong(offset)
                    .putLong(size)
                    .putInt(link)
                    .putInt(info)
                    .putLong(addralign)
                    .putLong(entsize);
        }
    }

    final byte[] ehdr;
    final int type;
    final long phoff;
    final long shoff;
    final List<Phdr> phdrs;
    final List<Shdr> shdrs;
    /** Index of the section-name string table, or 0. */
    final int shstrndx;

    final long fileSize;
    /** The input as the elf module reads it: notes, dynamic entries. */
    final ElfFile view;

    private ElfHeaders(
            byte[] ehdr,
            int type,
            long phoff,
            long shoff,
            List<Phdr> phdrs,
            List<Shdr> shdrs,
            int shstrndx,
            long fileSize,
            ElfFile view) {
        this.ehdr = ehdr;
        this.type = type;
        this.phoff = phoff;
        this.shoff = shoff;
        this.phdrs = phdrs;
        this.shdrs = shdrs;
        this.shstrndx = shstrndx;
        this.fileSize = fileSize;
        this.view = view;
    }

    static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    static ByteBuffer read(FileChannel ch, long pos, int size) throws IOException {
        ByteBuffer b = le(size);
        while (b.hasRemaining()) {
            int n = ch.read(b, pos + b.position());
            if (n < 0) {
                throw new IOException("unexpected end of file at " + (pos + b.position()));
            }
        }
        return b.flip();
    }

    static ElfHeaders read(Path path, FileChannel ch) throws IOException {
        long size = ch.size();
        if (size < EHDR_SIZE) {
            throw new RewriteException(path + ": not an ELF file (" + size + " bytes)");
        }
        ByteBuffer e = read(ch, 0, EHDR_SIZE);
        byte[] ehdr = e.array().clone();
        if (ehdr[0] != 0x7f || ehdr[1] != 'E' || ehdr[2] != 'L' || ehdr[3] != 'F') {
            throw new RewriteException(path + ": not an ELF file");
        }
        if (ehdr[4] != 2 || ehdr[5] != 1) {
            throw new RewriteException(path + ": not a 64-bit little-endian ELF file");
        }
        int type = Short.toUnsignedInt(e.getShort(16));
        int machine = Short.toUnsignedInt(e.getShort(18));
        if (machine != EM_X86_64) {
            throw new RewriteException(path + ": not an x86-64 ELF file (e_machine " + machine + ")");
        }
        if (type != ET_EXEC && type != ET_DYN) {
            throw new RewriteException(path + ": not an executable or shared library (e_type " + type + ")");
        }
        long phoff = e.getLong(32);
        long shoff = e.getLong(40);
        int phentsize = Short.toUnsignedInt(e.getShort(54));
        int phnum = Short.toUnsignedInt(e.getShort(56));
        int shentsize = Short.toUnsignedInt(e.getShort(58));
        int shnum = Short.toUnsignedInt(e.getShort(60));
        if (phentsize != PHDR_SIZE
                || phnum == 0
                || phnum == 0xffff
                || phoff <= 0
                || phoff + (long) phnum * PHDR_SIZE > size) {
            throw new RewriteException(path + ": bad program header table");
        }
        if (shoff != 0) {
            if (shentsize != SHDR_SIZE || shoff + SHDR_SIZE > size) {
                throw new RewriteException(path + ": bad section header table");
            }
            if (shnum == 0) { // extended numbering: the count is in section 0's sh_size
                shnum = (int) Math.min(read(ch, shoff, SHDR_SIZE).getLong(32), Integer.MAX_VALUE);
            }
            if (shoff + (long) shnum * SHDR_SIZE > size) {
                throw new RewriteException(path + ": section header table beyond the end of the file");
            }
        }
        // the checks above are the rewriter's (what it can write back); the tables come from the reader
        ElfFile view;
        try {
            view = ElfFile.open(path);
        } catch (ElfFormatException unreadable) {
            throw new RewriteException(unreadable.getMessage(), unreadable);
        }
        List<Phdr> phdrs = new ArrayList<>(view.phnum());
        for (ProgramHeader h : view.programHeaders()) {
            phdrs.add(
                    new Phdr(h.type(), h.flags(), h.offset(), h.vaddr(), h.paddr(), h.filesz(), h.memsz(), h.align()));
        }
        List<Shdr> shdrs = new ArrayList<>(view.shnum());
        for (SectionHeader h : view.sections()) {
            shdrs.add(new Shdr(
                    h.nameOffset(),
                    h.type(),
                    h.flags(),
                    h.addr(),
                    h.offset(),
                    h.size(),
                    h.link(),
                    h.info(),
                    h.addralign(),
                    h.entsize()));
        }
        int shstrndx = shdrs.isEmpty() || view.shstrndx() >= shdrs.size() ? SHN_UNDEF : view.shstrndx();
        return new ElfHeaders(ehdr, type, phoff, shoff, phdrs, shdrs, shstrndx, size, view);
    }
}
