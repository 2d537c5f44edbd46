package dev.cartograph.local.fault;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

/**
 * The entry point of every child JVM of the fault suite: {@code ParentWatch MAIN-CLASS ARGS...} runs
 * {@code MAIN-CLASS.main(ARGS)} and halts the JVM as soon as its standard input closes, which is
 * when the test JVM that started it is gone (the pipe's other end dies with it). Without it, a test
 * JVM killed by a time-out would leave brokers, agents and Kafka nodes running on the CI machine.
 * It takes no part in the faults: the suite kills children with SIGKILL, which nothing in the child
 * sees coming.
 */
public final class ParentWatch {
    private ParentWatch() {}

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: ParentWatch MAIN-CLASS [ARGS...]");
            System.exit(2);
        }
        Thread watch = new Thread(ParentWatch::haltWhenStdinCloses, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        try {
            Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object)
                    Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void haltWhenStdinCloses() {
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // the parent never writes; anything read is ignored
            }
        } catch (IOException e) {
            // a broken pipe is a closed one
        }
        Runtime.getRuntime().halt(143);
    }
}
