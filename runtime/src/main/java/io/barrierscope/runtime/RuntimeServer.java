package io.barrierscope.runtime;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Unix domain socket the program's CUDA runtime connects to. One connection per process that
 * loads our libcudart.so.13 (a program that forks gets one each); every request goes through the
 * one {@link DeviceSession}, whose methods are synchronized, so launches never overlap and each
 * runs alone, deterministically.
 */
public final class RuntimeServer implements AutoCloseable {
    private final Path dir;
    private final Path socket;
    private final ServerSocketChannel server;
    private final DeviceSession session;
    private final PrintWriter err;
    private final Thread acceptor;
    /** Connections so far: each process of the program has its own, numbered from 1 (HostMirrors tells them apart). */
    private int clients;

    public RuntimeServer(DeviceSession session, PrintWriter err) throws IOException {
        this.session = session;
        this.err = err;
        this.dir = Files.createTempDirectory("barrierscope-exec");
        this.socket = dir.resolve("cudart.sock");
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        this.acceptor = new Thread(this::acceptLoop, "barrierscope-exec-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public Path socket() { return socket; }

    private void acceptLoop() {
        while (server.isOpen()) {
            try {
                SocketChannel c = server.accept();
                int client = ++clients;
                Thread t = new Thread(() -> serve(c, client), "barrierscope-exec-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(SocketChannel c, int client) {
        try (c; DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(c), 1 << 16));
             OutputStream out = new BufferedOutputStream(Channels.newOutputStream(c), 1 << 16)) {
            while (true) {
                RuntimeProtocol.Request r = RuntimeProtocol.read(in);
                if (r == null) return;
                DeviceSession.Reply reply;
                try {
                    reply = session.handle(r, client);
                } catch (RuntimeException e) {
                    // The program gets an error for this call and goes on; the engine's state is its own.
                    err.println("barrierscope: internal error on request " + r.op() + " (please report it): " + e);
                    e.printStackTrace(err);
                    err.flush();
                    reply = new DeviceSession.Reply(999, new byte[0]);
                }
                RuntimeProtocol.reply(out, reply.status(), reply.payload());
            }
        } catch (IOException e) {
            // The program exited or was killed in the middle of a request: nothing to answer.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(socket);
        Files.deleteIfExists(dir);
    }
}
