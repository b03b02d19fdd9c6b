package io.barrierscope.app.debugger;

import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * A banner under the toolbar for what the user must not miss, e.g. a file that failed to open
 * (with file:line:col), shown until closed or replaced. Code-behind only: the text is the view
 * model's {@code notification}.
 */
final class NotificationBar {
    private NotificationBar() {}

    static Node of(DebuggerViewModel vm) {
        Label text = new Label();
        text.setId("notification");
        text.setWrapText(true);
        text.setMaxWidth(Double.MAX_VALUE);
        text.textProperty().bind(vm.notificationProperty());
        HBox.setHgrow(text, Priority.ALWAYS);
        Button close = new Button("✕");
        close.setId("notificationClose");
        close.setTooltip(new Tooltip("Close this notification"));
        close.setOnAction(e -> vm.dismissNotification());
        HBox bar = new HBox(8, text, close);
        bar.getStyleClass().add("notification-bar");
        bar.managedProperty().bind(vm.notificationProperty().isNotEmpty());
        bar.visibleProperty().bind(bar.managedProperty());
        return bar;
    }
}
