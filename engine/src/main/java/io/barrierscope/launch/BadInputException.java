package io.barrierscope.launch;

/** Bad input from a user (launch file, PTX, CLI argument): the message is located and readable; exit code 2. */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) { super(message); }

    public BadInputException(String message, Throwable cause) { super(message, cause); }
}
